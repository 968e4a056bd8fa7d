/**
 * Side by side with a NocoDB peer: formulas, filters and rollups. Both sides get
 * the same base, table and rows through NocoDB's v2 meta and data API, then for
 * each formula a Formula column is added, read and removed, for each filter the
 * ids `where` selects are read, and each rollup function is read over a has-many
 * link. Prints one markdown row per case: NocoDB's answer, Tabula's, and `≠`
 * where they differ. A development tool: it needs both servers running (never
 * run by the tests, whose tables keep NocoDB's answers).
 *
 *   NOCODB_URL=http://127.0.0.1:8090 NOCODB_EMAIL=… NOCODB_PASSWORD=… TABULA_URL=http://127.0.0.1:8080 \
 *     npx tsx scripts/compat/depth-compare.ts [types|formulas|filters|rollups|depth …]
 *
 * FORMULAS='["ADD({Num}, 1)"]' compares those formulas instead of the built-in list.
 *
 * Tabula's user (TABULA_EMAIL / TABULA_PASSWORD, default compare@example.com) is signed up when it
 * cannot sign in. Dates of the filter rows are relative to today (UTC), so the date
 * sub-operators select the same rows on both sides whatever the day.
 */
import { call, signIn, type Answer } from './peer-client';

interface Side {
  name: 'NocoDB' | 'Tabula';
  url: string;
  token: string;
  table?: string;
  tableColumns?: Record<string, string>;
}




const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The rows: the formula cases read rows 1, 2 and 4 (4 holds blanks). */
const ROWS = [
  { Title: 'Apple pie', Num: 10, Price: 1.5, Due: '2024-06-15', At: '2024-06-15 08:30:00+00:00', Done: true, Tags: 'a,b', Kind: 'x', When: day(0) },
  { Title: 'banana_split', Num: 20, Price: 2.25, Due: '2024-06-14', At: '2024-06-14 23:59:59+00:00', Done: false, Tags: 'b', Kind: 'y', When: day(-1) },
  { Title: 'Cherry', Num: 30, Price: 10, Due: '2024-06-20', At: '2024-06-16 00:00:00+00:00', Done: false, Tags: 'c,a', Kind: 'z', When: day(1) },
  { Title: '', Num: null, Price: null, Due: null, At: null, Done: false, Tags: null, Kind: null, When: null },
  { Title: null, Num: 5, Price: 0.5, Due: '2024-05-15', At: '2024-05-15 12:00:00+00:00', Done: false, Tags: 'b,c', Kind: 'x', When: day(-3) },
  { Title: '100% juice', Num: -1, Price: 3.75, Due: '2025-01-01', At: '2024-06-10 10:00:00+00:00', Done: true, Tags: 'a', Kind: 'y', When: day(-7) },
  { Title: 'far', Num: 7, Price: 1, Due: '2023-01-01', At: '2023-01-01 00:00:00+00:00', Done: false, Tags: 'a,b,c', Kind: 'z', When: day(-30) },
  { Title: 'later', Num: 8, Price: 2, Due: '2026-01-01', At: '2026-01-01 00:00:00+00:00', Done: true, Tags: 'c', Kind: 'x', When: day(10) },
];

export const FORMULAS: string[] = [
  'ROUNDUP({Price}, 1)', 'ROUNDUP(-{Price})', 'ROUNDUP(1.1, 1) + ROUNDUP(123, -1)', 'ROUNDDOWN({Price}, 1)', 'ROUNDDOWN(-{Price})',
  'ROUNDDOWN(1234.5678, 2)', 'EVEN({Price})', 'EVEN(-1) + EVEN(0) + EVEN(3)', 'ODD({Num})', 'ODD(0) + ODD(-2) + ODD(1.5)',
  'COUNT({Num}, {Title}, 3, {Price})', 'COUNTA({Num}, {Title}, {Due})', 'COUNTALL({Num}, {Title}, BLANK())',
  'VALUE("$1,000.50")', 'VALUE("-12.5%") + VALUE({Num})', 'VALUE({Title})',
  'URLENCODE("a b&c/d?e=f#g")', 'URLENCODE({Title})', 'REPEAT({Title}, 2)', 'REPT("ab", 2)',
  'DATESTR({At})', "DATESTR('2024-02-29')", 'ISNOTBLANK({Title})', 'ISNOTBLANK({Num})', 'ISBLANK({Title})',
  'TRUE()', 'FALSE()', 'IF(TRUE(), 1, 0) + IF(FALSE(), 10, 0)', 'XOR({Done}, {Num} > 15)',
  'RECORD_ID()', 'LAST_MODIFIED_TIME()',
  'REGEX_MATCH({Title}, "^[A-Z]")', 'REGEX_EXTRACT({Title}, "[a-z]+")', 'REGEX_EXTRACT({Title}, "a(n+)a")', 'REGEX_REPLACE({Title}, "[aeiou]", "*")',
  'ARRAYSORT({Tags})', "ARRAYSORT('c,a,b', 'desc')", "ARRAYUNIQUE('b,a,b,c,a')", "ARRAYCOMPACT('a,,b, ,c')", "ARRAYSLICE('a,b,c,d', 2, 3)",
  'LOG(10, 1000)', 'LOG(1000)', 'LOG(2, 8)', 'WEEKDAY({Due})', "WEEKDAY({Due}, 'sunday')", "WEEKDAY({At}, 'Wednesday')",
  'ADD({Num}, 5, 1)', 'AVG({Num}, 20)', 'ROUND({Num} / 3, 2)', 'MOD({Num}, 3)', 'POWER({Num}, 2)', 'SQRT({Num} - 19)', 'EXP(0)',
  'ABS({Num} - 15)', 'CEILING({Price})', 'FLOOR({Price})', 'INT(-{Price})', 'MIN({Num}, 15)', 'MAX({Num}, 15)',
  "CONCAT({Title}, '-', {Num})", 'LEN({Title})', 'LOWER({Title})', 'UPPER({Title})', 'TRIM("  x ")', 'LEFT({Title}, 3)', 'RIGHT({Title}, 3)',
  'MID({Title}, 2, 3)', 'SUBSTR({Title}, 7)', "REPLACE({Title}, 'p', 'P')", "SEARCH({Title}, 'an')", "URL('https://example.org/a?b=1')",
  "IF({Num} > 15, 'big', 'small')", "SWITCH({Num}, 10, 'ten', 20, 'twenty', 'other')", 'AND({Num} > 5, {Done})', 'OR({Num} > 15, {Done})', 'NOT({Done})',
  'DAY({Due})', 'MONTH({Due})', 'YEAR({Due})', 'HOUR({At})', 'MINUTE({At})', 'SECOND({At})', "DATEADD({Due}, 1, 'day')",
  "DATETIME_DIFF({Due}, '2024-06-01', 'days')", 'YEAR(TODAY()) >= 2024',
  `JSON_EXTRACT('{"a": {"b": "c"}}', '.a.b')`, `JSON_EXTRACT('{"n": [1, {"x": 2.5}]}', '.n[1].x')`, `JSON_EXTRACT('{"a": 1}', '.b')`,
  'ADD({Num}, {Price})', 'MIN({Num}, BLANK())', 'MAX({Price}, {Num}, 1)', 'OR({Num} > 15, FALSE())', 'ROUNDDOWN(-2.349, 2)',
  'VALUE("1e3")', 'VALUE("12abc")', 'SQRT(-1)', 'MOD(5, 0)',
];

export const FILTERS: string[] = [
  '(Title,blank)', '(Title,notblank)', '(Title,empty)', '(Title,notempty)', '(Title,null)', '(Title,notnull)',
  '(Num,blank)', '(Num,notblank)', '(Num,null)', '(Num,notnull)', '(Num,empty)', '(Num,notempty)',
  '(Tags,anyof,a)', '(Tags,anyof,a,c)', '(Tags,allof,a,b)', '(Tags,nanyof,a)', '(Tags,nallof,a,b)', '(Tags,blank)',
  '(Kind,anyof,x)', '(Kind,anyof,x,y)', '(Kind,allof,x)', '(Kind,nanyof,x)', '(Kind,nallof,x,y)', '(Kind,eq,x)', '(Kind,blank)',
  '(Done,checked)', '(Done,notchecked)',
  '(When,eq,today)', '(When,eq,yesterday)', '(When,eq,tomorrow)', '(When,eq,oneWeekAgo)', '(When,eq,oneMonthAgo)',
  '(When,eq,daysAgo,3)', '(When,eq,daysFromNow,10)', `(When,eq,exactDate,${day(-3)})`, '(When,lt,today)', '(When,gte,daysAgo,7)',
  '(When,isWithin,pastWeek)', '(When,isWithin,pastMonth)', '(When,isWithin,pastYear)', '(When,isWithin,nextWeek)', '(When,isWithin,nextMonth)',
  '(When,isWithin,nextYear)', '(When,isWithin,pastNumberOfDays,3)', '(When,isWithin,nextNumberOfDays,10)', '(When,blank)', '(When,notblank)',
];

export const ROLLUPS = ['sum', 'avg', 'min', 'max', 'count', 'countDistinct', 'sumDistinct', 'avgDistinct'];

const cell = (v: unknown) => JSON.stringify(v)?.replace(/\|/g, '\\|') ?? '-';

async function setUp(side: Side): Promise<void> {
  const base = await call(side, 'POST', '/api/v2/meta/bases/', { title: `Depth ${Date.now()}` });
  if (base.status >= 300) throw new Error(`${side.name}: base ${base.status} ${JSON.stringify(base.body)}`);
  const options = (names: string[]) => ({ options: names.map((title, i) => ({ title, order: i + 1 })) });
  const table = await call(side, 'POST', `/api/v2/meta/bases/${base.body.id}/tables`, {
    title: 'Depth', table_name: 'depth',
    columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
      { column_name: 'num', title: 'Num', uidt: 'Number' },
      { column_name: 'price', title: 'Price', uidt: 'Decimal' },
      { column_name: 'due', title: 'Due', uidt: 'Date' },
      { column_name: 'at', title: 'At', uidt: 'DateTime' },
      { column_name: 'done', title: 'Done', uidt: 'Checkbox' },
      { column_name: 'tags', title: 'Tags', uidt: 'MultiSelect', dtxp: "'a','b','c'", colOptions: options(['a', 'b', 'c']) },
      { column_name: 'kind', title: 'Kind', uidt: 'SingleSelect', dtxp: "'x','y','z'", colOptions: options(['x', 'y', 'z']) },
      { column_name: 'when', title: 'When', uidt: 'Date' },
    ],
  });
  if (table.status >= 300) throw new Error(`${side.name}: table ${table.status} ${JSON.stringify(table.body)}`);
  side.table = table.body.id;
  const inserted = await call(side, 'POST', `/api/v2/tables/${side.table}/records`, ROWS);
  if (inserted.status >= 300) throw new Error(`${side.name}: rows ${inserted.status} ${JSON.stringify(inserted.body)}`);
  (side as Side & { base: string }).base = base.body.id;
}

async function list(side: Side, query: string): Promise<Answer> {
  return call(side, 'GET', `/api/v2/tables/${side.table}/records?${query}`);
}

const errorOf = (a: Answer) => `${a.status} ${String(a.body?.msg ?? a.body?.message ?? a.body?.error ?? '').slice(0, 70)}`;

async function formulaValues(side: Side, formula: string, i: number): Promise<string> {
  const title = `F${i}`;
  const made = await call(side, 'POST', `/api/v2/meta/tables/${side.table}/columns`, { title, uidt: 'Formula', formula_raw: formula, formula });
  if (made.status >= 300) return errorOf(made);
  const read = await list(side, `fields=Id,${title}&sort=Id&where=${encodeURIComponent('(Id,in,1,2,4)')}`);
  const table = await call(side, 'GET', `/api/v2/meta/tables/${side.table}`);
  const column = (table.body?.columns ?? []).find((c: { title: string }) => c.title === title);
  if (column) await call(side, 'DELETE', `/api/v2/meta/columns/${column.id}`);
  if (read.status >= 300) return errorOf(read);
  return cell((read.body.list as Record<string, unknown>[]).map((r) => r[title] ?? null));
}

async function filterIds(side: Side, where: string): Promise<string> {
  const read = await list(side, `fields=Id&sort=Id&limit=100&where=${encodeURIComponent(where)}`);
  if (read.status >= 300) return errorOf(read);
  return cell((read.body.list as { Id: number }[]).map((r) => r.Id));
}

async function rollupValues(side: Side & { base?: string }): Promise<Record<string, string>> {
  const lines = await call(side, 'POST', `/api/v2/meta/bases/${side.base}/tables`, {
    title: 'Lines', table_name: 'lines',
    columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'amount', title: 'Amount', uidt: 'Number' }],
  });
  const link = await call(side, 'POST', `/api/v2/meta/tables/${side.table}/columns`, { title: 'Lines', uidt: 'Links', parentId: side.table, childId: lines.body.id, type: 'hm' });
  if (link.status >= 300) return Object.fromEntries(ROLLUPS.map((f) => [f, errorOf(link)]));
  await call(side, 'POST', `/api/v2/tables/${lines.body.id}/records`, [{ Amount: 5 }, { Amount: 5 }, { Amount: 10 }, { Amount: null }]);
  const meta = await call(side, 'GET', `/api/v2/meta/tables/${side.table}`);
  const linkColumn = (meta.body.columns as { id: string; title: string }[]).find((c) => c.title === 'Lines')!;
  const linesMeta = await call(side, 'GET', `/api/v2/meta/tables/${lines.body.id}`);
  const amount = (linesMeta.body.columns as { id: string; title: string }[]).find((c) => c.title === 'Amount')!;
  // Row 1 links all four lines; row 2 none.
  await call(side, 'POST', `/api/v2/tables/${side.table}/links/${linkColumn.id}/records/1`, [{ Id: 1 }, { Id: 2 }, { Id: 3 }, { Id: 4 }]);
  const out: Record<string, string> = {};
  for (const fn of ROLLUPS) {
    const title = `R_${fn}`;
    const made = await call(side, 'POST', `/api/v2/meta/tables/${side.table}/columns`, {
      title, uidt: 'Rollup', fk_relation_column_id: linkColumn.id, fk_rollup_column_id: amount.id, rollup_function: fn,
    });
    if (made.status >= 300) { out[fn] = errorOf(made); continue; }
    const read = await list(side, `fields=Id,${title}&sort=Id&where=${encodeURIComponent('(Id,in,1,2)')}`);
    out[fn] = read.status >= 300 ? errorOf(read) : cell((read.body.list as Record<string, unknown>[]).map((r) => r[title] ?? null));
  }
  return out;
}

/** Column types: one table of every type, one row written as a NocoDB client writes it, each cell read back. */
export const TYPE_COLUMNS: Record<string, unknown>[] = [
  { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
  { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
  { column_name: 'dec', title: 'Decimal', uidt: 'Decimal', meta: { precision: 4 } },
  { column_name: 'pct', title: 'Percent', uidt: 'Percent' },
  { column_name: 'dur', title: 'Duration', uidt: 'Duration', meta: { duration: 0 } },
  { column_name: 'rat', title: 'Rating', uidt: 'Rating' },
  { column_name: 'yr', title: 'Year', uidt: 'Year' },
  { column_name: 'tm', title: 'Time', uidt: 'Time' },
  { column_name: 'cur', title: 'Currency', uidt: 'Currency' },
  { column_name: 'geo', title: 'GeoData', uidt: 'GeoData' },
  { column_name: 'gm', title: 'Geometry', uidt: 'Geometry' },
  { column_name: 'js', title: 'JSON', uidt: 'JSON' },
  { column_name: 'uu', title: 'UUID', uidt: 'UUID' },
  { column_name: 'us', title: 'User', uidt: 'User' },
  { column_name: 'co', title: 'Collaborator', uidt: 'Collaborator' },
  { column_name: 'att', title: 'Attachment', uidt: 'Attachment' },
];

/** The values written (row 1; row 2 is empty); `User` is the signed-in user's e-mail. */
const typeRow = (email: string): Record<string, unknown> => ({
  Title: 'a b', Decimal: 1.23456, Percent: 33.5, Duration: 3661, Rating: 3, Year: 2024, Time: '10:20:30', Currency: 9.999,
  GeoData: '50.1;8.6', Geometry: 'POINT(1 2)', JSON: { a: [1] }, User: email, Collaborator: email,
  Attachment: [{ url: 'https://example.org/a.png', title: 'a.png', mimetype: 'image/png' }],
});

/** Masks what differs by nature between two servers (ids, times, uuids) so equal shapes compare equal. */
function masked(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, (k, v) => {
    if (k === 'id' && typeof v === 'string') return '<id>';
    if (typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v)) return '<uuid>';
    return v;
  }));
}

async function typeValues(side: Side & { base?: string }, email: string): Promise<Record<string, string>> {
  const made = await call(side, 'POST', `/api/v2/meta/bases/${side.base}/tables`, { title: 'Types', table_name: 'types', columns: TYPE_COLUMNS });
  if (made.status >= 300) throw new Error(`${side.name}: types ${made.status} ${JSON.stringify(made.body)}`);
  const t = made.body.id as string;
  const idOf = (title: string) => (made.body.columns as { id: string; title: string }[]).find((c) => c.title === title)!.id;
  const out: Record<string, string> = {};
  for (const c of [
    { title: 'CreatedBy', uidt: 'CreatedBy' }, { title: 'LastModifiedBy', uidt: 'LastModifiedBy' },
    { title: 'QrCode', uidt: 'QrCode', fk_qr_value_column_id: idOf('Title') },
    { title: 'Barcode', uidt: 'Barcode', fk_barcode_value_column_id: idOf('Title') },
    { title: 'Button', uidt: 'Button', type: 'url', label: 'Go', formula_raw: "CONCAT('https://x.org/', {Title})", formula: "CONCAT('https://x.org/', {Title})", theme: 'solid', color: 'brand' },
  ]) {
    const r = await call(side, 'POST', `/api/v2/meta/tables/${t}/columns`, c);
    if (r.status >= 300) out[c.title] = errorOf(r);
  }
  const inserted = await call(side, 'POST', `/api/v2/tables/${t}/records`, [{ Title: 'a b' }, {}]);
  if (inserted.status >= 300) out._insert = errorOf(inserted);
  // One update per value, so a value one side refuses shows as that column's answer.
  for (const [title, value] of Object.entries(typeRow(email))) {
    const r = await call(side, 'PATCH', `/api/v2/tables/${t}/records`, [{ Id: 1, [title]: value }]);
    if (r.status >= 300) out[title] = `write ${errorOf(r)}`;
  }
  const read = await call(side, 'GET', `/api/v2/tables/${t}/records?sort=Id`);
  for (const title of [...TYPE_COLUMNS.map((c) => String(c.title)), 'CreatedBy', 'LastModifiedBy', 'QrCode', 'Barcode', 'Button']) {
    if (out[title]) continue;
    out[title] = read.status >= 300 ? errorOf(read) : cell((read.body.list as Record<string, unknown>[]).map((r) => masked(r[title])));
  }
  const badUser = await call(side, 'POST', `/api/v2/tables/${t}/records`, [{ User: 'nobody-here@example.com' }]);
  out['User (not a member)'] = String(badUser.status);
  return out;
}

/**
 * Relations of depth: Countries have many Authors, Authors have many Books; a
 * book's country (a lookup of a lookup), a country's pages (a rollup of a
 * rollup), a country's titles (a lookup of a has-many lookup) and a rollup of
 * link counts, read and filtered; and a DateTime `eq today` in a time zone
 * (`whereTz=Asia/Tokyo`) on rows early and late on today's Tokyo date.
 */
async function depthValues(side: Side & { base?: string }): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const out: Record<string, string> = {};
  for (const [title, more] of [['Countries', []], ['Authors', []], ['Books', [{ column_name: 'pages', title: 'Pages', uidt: 'Number' }]]] as const) {
    const made = await call(side, 'POST', `/api/v2/meta/bases/${side.base}/tables`, { title, table_name: title.toLowerCase(), columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, ...more,
    ] });
    ids[title] = made.body.id;
  }
  const columns = async (table: string) => (await call(side, 'GET', `/api/v2/meta/tables/${ids[table]}`)).body.columns as { id: string; title: string; uidt: string; colOptions?: any }[];
  const colId = async (table: string, title: string) => (await columns(table)).find((c) => c.title === title)?.id;
  const add = (table: string, body: Record<string, unknown>) => call(side, 'POST', `/api/v2/meta/tables/${ids[table]}/columns`, body);
  await add('Countries', { title: 'Authors', uidt: 'Links', parentId: ids.Countries, childId: ids.Authors, type: 'hm' });
  await add('Authors', { title: 'Books', uidt: 'Links', parentId: ids.Authors, childId: ids.Books, type: 'hm' });
  await call(side, 'POST', `/api/v2/tables/${ids.Countries}/records`, [{ Name: 'PT' }, { Name: 'NO' }, { Name: 'XX' }]);
  await call(side, 'POST', `/api/v2/tables/${ids.Authors}/records`, [{ Name: 'Ann' }, { Name: 'Bob' }, { Name: 'Cid' }]);
  await call(side, 'POST', `/api/v2/tables/${ids.Books}/records`, [{ Name: 'b1', Pages: 100 }, { Name: 'b2', Pages: 50 }, { Name: 'b3', Pages: 50 }, { Name: 'b4', Pages: 7 }]);
  const link = async (table: string, column: string, row: number, to: number[]) =>
    call(side, 'POST', `/api/v2/tables/${ids[table]}/links/${await colId(table, column)}/records/${row}`, to.map((Id) => ({ Id })));
  await link('Countries', 'Authors', 1, [2, 1]);
  await link('Countries', 'Authors', 2, [3]);
  await link('Authors', 'Books', 1, [3, 1]);
  await link('Authors', 'Books', 2, [2]);
  await link('Authors', 'Books', 3, [4]);
  const bt = async (table: string) => (await columns(table)).find((c) => c.colOptions?.type === 'bt')?.id;
  const made = async (table: string, body: Record<string, unknown>) => {
    const r = await add(table, body);
    if (r.status >= 300) out[String(body.title)] = `create ${errorOf(r)}`;
  };
  await made('Authors', { title: 'Country', uidt: 'Lookup', fk_relation_column_id: await bt('Authors'), fk_lookup_column_id: await colId('Countries', 'Name') });
  await made('Authors', { title: 'PagesSum', uidt: 'Rollup', fk_relation_column_id: await colId('Authors', 'Books'), fk_rollup_column_id: await colId('Books', 'Pages'), rollup_function: 'sum' });
  await made('Authors', { title: 'Titles', uidt: 'Lookup', fk_relation_column_id: await colId('Authors', 'Books'), fk_lookup_column_id: await colId('Books', 'Name') });
  const cases: [string, string, Record<string, unknown>][] = [
    ['Books', 'Lookup of a Lookup (book → author → country)', { uidt: 'Lookup', fk_relation_column_id: await bt('Books'), fk_lookup_column_id: await colId('Authors', 'Country') }],
    ['Countries', 'Rollup sum of a Rollup sum', { uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'PagesSum'), rollup_function: 'sum' }],
    ['Countries', 'Rollup max of a Rollup sum', { uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'PagesSum'), rollup_function: 'max' }],
    ['Countries', 'Lookup of a has-many Lookup', { uidt: 'Lookup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_lookup_column_id: await colId('Authors', 'Titles') }],
    ['Countries', 'Rollup sum of link counts', { uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'Books'), rollup_function: 'sum' }],
    ['Authors', 'has-many Lookup (linked 3, 1: pk order)', { uidt: 'Lookup', fk_relation_column_id: await colId('Authors', 'Books'), fk_lookup_column_id: await colId('Books', 'Name') }],
  ];
  for (const [i, [table, what, body]] of cases.entries()) {
    const title = `D${i}`;
    const r = await add(table, { title, ...body });
    if (r.status >= 300) { out[what] = `create ${errorOf(r)}`; continue; }
    const read = await call(side, 'GET', `/api/v2/tables/${ids[table]}/records?sort=Id&fields=Id,${title}`);
    out[what] = read.status >= 300 ? errorOf(read) : cell((read.body.list as Record<string, unknown>[]).map((x) => x[title] ?? null));
    const where = await call(side, 'GET', `/api/v2/tables/${ids[table]}/records?sort=-${title},Id&fields=Id&where=${encodeURIComponent(`(${title},isnot,null)`)}`);
    out[`${what}: sort desc, where not null`] = where.status >= 300 ? errorOf(where) : cell((where.body.list as { Id: number }[]).map((x) => x.Id));
  }
  Object.assign(out, await depthOrders(side, ids, columns));
  // DateTime eq today in the caller's time zone.
  const tokyoDay = (offset: number) => new Date(Date.now() + 9 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
  const tokyo = (day: string, time: string) => `${new Date(`${day}T${time}:00+09:00`).toISOString().replace('T', ' ').slice(0, 19)}+00:00`;
  const events = await call(side, 'POST', `/api/v2/meta/bases/${side.base}/tables`, { title: 'Events', table_name: 'events', columns: [
    { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'at', title: 'At', uidt: 'DateTime' },
  ] });
  await call(side, 'POST', `/api/v2/tables/${events.body.id}/records`, [
    { At: tokyo(tokyoDay(0), '00:30') }, { At: tokyo(tokyoDay(0), '23:30') }, { At: tokyo(tokyoDay(-1), '23:30') }, { At: tokyo(tokyoDay(1), '00:30') },
  ]);
  for (const w of ['(At,eq,today)', '(At,lt,today)', '(At,gt,today)', '(At,isWithin,nextNumberOfDays,1)']) {
    const r = await call(side, 'GET', `/api/v2/tables/${events.body.id}/records?sort=Id&fields=Id&whereTz=Asia%2FTokyo&where=${encodeURIComponent(w)}`);
    out[`${w} whereTz=Asia/Tokyo (rows: today 00:30, today 23:30, yesterday 23:30, tomorrow 00:30 in Tokyo)`] = r.status >= 300 ? errorOf(r) : cell((r.body.list as { Id: number }[]).map((x) => x.Id));
  }
  return out;
}

/**
 * Sorts and filters on the depth tables: a has-many lookup of numbers (compared
 * as text?), a Links count, a Formula over a rollup, and a PATCH that points an
 * existing lookup into a cycle.
 */
async function depthOrders(side: Side, ids: Record<string, string>, columns: (table: string) => Promise<{ id: string; title: string; colOptions?: any }[]>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const colId = async (table: string, title: string) => (await columns(table)).find((c) => c.title === title)?.id;
  const add = (table: string, body: Record<string, unknown>) => call(side, 'POST', `/api/v2/meta/tables/${ids[table]}/columns`, body);
  const idsOf = async (table: string, query: string) => {
    const r = await call(side, 'GET', `/api/v2/tables/${ids[table]}/records?fields=Id&${query}`);
    return r.status >= 300 ? errorOf(r) : cell((r.body.list as { Id: number }[]).map((x) => x.Id));
  };
  await add('Authors', { title: 'PageList', uidt: 'Lookup', fk_relation_column_id: await colId('Authors', 'Books'), fk_lookup_column_id: await colId('Books', 'Pages') });
  out['has-many Lookup of numbers (100,50 / 50 / 7): sort asc'] = await idsOf('Authors', 'sort=PageList,Id');
  out['has-many Lookup of numbers: where gt 60'] = await idsOf('Authors', `sort=Id&where=${encodeURIComponent('(PageList,gt,60)')}`);
  out['Links count (2 / 1 / 1): sort desc, where gt 0'] = await idsOf('Authors', `sort=-Books,Id&where=${encodeURIComponent('(Books,gt,0)')}`);
  await add('Authors', { title: 'Twice', uidt: 'Formula', formula_raw: '{PagesSum} * 2', formula: '{PagesSum} * 2' });
  out['Formula over a Rollup (300 / 100 / 14): sort asc, where lt 200'] = await idsOf('Authors', `sort=Twice&where=${encodeURIComponent('(Twice,lt,200)')}`);
  // Authors.Titles → (its country) Countries.D3, the lookup of Authors.Titles: a cycle.
  const bt = (await columns('Authors')).find((c) => c.colOptions?.type === 'bt')?.id;
  const cycle = await call(side, 'PATCH', `/api/v2/meta/columns/${await colId('Authors', 'Titles')}`, {
    title: 'Titles', uidt: 'Lookup', fk_relation_column_id: bt, fk_lookup_column_id: await colId('Countries', 'D3'),
  });
  out['PATCH a Lookup to look up its own lookup (a cycle)'] = String(cycle.status);
  return out;
}

async function main(): Promise<void> {
  const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is required`); })();
  const parts = process.argv.slice(2).length ? process.argv.slice(2) : ['types', 'formulas', 'filters', 'rollups', 'depth'];
  const tabulaEmail = process.env.TABULA_EMAIL ?? 'compare@example.com';
  const sides: Side[] = [
    { name: 'NocoDB', url: env('NOCODB_URL'), token: await signIn(env('NOCODB_URL'), env('NOCODB_EMAIL'), env('NOCODB_PASSWORD'), false) },
    { name: 'Tabula', url: env('TABULA_URL'), token: await signIn(env('TABULA_URL'), tabulaEmail, process.env.TABULA_PASSWORD ?? 'Compare-pass-1234', true) },
  ];
  const emails = [env('NOCODB_EMAIL'), tabulaEmail];
  for (const side of sides) await setUp(side);
  let same = 0;
  let total = 0;
  const row = (what: string, n: string, t: string) => {
    total += 1;
    if (n === t) same += 1;
    console.log(`| \`${what.replace(/\|/g, '\\|')}\` | ${n} | ${t} | ${n === t ? '' : '≠'} |`);
  };
  if (parts.includes('types')) {
    console.log('\n### Column types (rows 1 and 2: values written, then an empty row; ids and uuids masked)\n\n| column type | NocoDB | Tabula | |\n|---|---|---|---|');
    const [n, t] = await Promise.all(sides.map((s, i) => typeValues(s, emails[i])));
    for (const key of Object.keys(n)) row(key, n[key], t[key] ?? '-');
  }
  if (parts.includes('formulas')) {
    console.log('\n### Formulas (rows 1, 2, 4)\n\n| formula | NocoDB | Tabula | |\n|---|---|---|---|');
    const only = process.env.FORMULAS ? JSON.parse(process.env.FORMULAS) as string[] : FORMULAS;
    for (const [i, formula] of only.entries()) {
      const [n, t] = await Promise.all(sides.map((s) => formulaValues(s, formula, i)));
      row(formula, n, t);
    }
  }
  if (parts.includes('filters')) {
    console.log('\n### Filters (ids selected)\n\n| where | NocoDB | Tabula | |\n|---|---|---|---|');
    for (const where of FILTERS) {
      const [n, t] = await Promise.all(sides.map((s) => filterIds(s, where)));
      row(where, n, t);
    }
  }
  if (parts.includes('rollups')) {
    console.log('\n### Rollups over a has-many link (row 1: 5, 5, 10, blank; row 2: no lines)\n\n| function | NocoDB | Tabula | |\n|---|---|---|---|');
    const [n, t] = await Promise.all(sides.map((s) => rollupValues(s)));
    for (const fn of ROLLUPS) row(fn, n[fn], t[fn]);
  }
  if (parts.includes('depth')) {
    console.log('\n### Relations of depth and DateTime days in a time zone\n\n| case | NocoDB | Tabula | |\n|---|---|---|---|');
    const [n, t] = await Promise.all(sides.map((s) => depthValues(s)));
    for (const key of Object.keys({ ...n, ...t })) row(key, n[key] ?? '-', t[key] ?? '-');
  }
  console.log(`\n${same} of ${total} cases answered the same`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
