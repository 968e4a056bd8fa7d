import request from 'supertest';
import knexFactory from 'knex';
import { RecordsChangedSchema, decodeEvent, recordsOfTable, type ColumnInfo, type TableContext } from '@tabula/contracts';
import { contractAuthorizer } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { createTasksTable, tasksContext } from './table.fixture';
import { insertRecordsAs } from '../src/domain/insert-records';
import { dataScopes, type TableInScope } from '../src/domain/table-access';
import { MAX_INSERT_BATCH } from '../src/repositories/insert-batcher';
import type { ApiRecord } from '../src/presenters/record.presenter';

/**
 * SQL statements per request (issue 16), counted from the data database's knex
 * `query` events, so a regression in round trips fails here rather than only
 * in the benchmark. The outbox relay's own transactions (it polls in the
 * background) are left out: they are not the request's.
 */
const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const P = '/api/v1/db/data/noco/pbase0000000001/Plain';
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

let n = 0;
const col = (title: string, column_name: string, uidt: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  id: `cp${String(++n).padStart(13, '0')}`, fk_model_id: 'mplain00000000', title, column_name, uidt, dt: null,
  pk: false, pv: false, rqd: false, unique: false, ai: false, au: false, system: false, order: n, ...extra,
});

/** A table of plain columns (what the one-statement insert serves): the bench table's shape. */
function plainContext(): TableContext {
  const tasks = tasksContext('pbase');
  const ts = 'timestamp with time zone';
  const columns = [
    col('Id', 'id', 'ID', { pk: true, ai: true, rqd: true, dt: 'integer' }),
    col('CreatedAt', 'created_at', 'CreatedTime', { system: true, dt: ts }),
    col('UpdatedAt', 'updated_at', 'LastModifiedTime', { system: true, dt: ts }),
    col('nc_created_by', 'created_by', 'CreatedBy', { system: true, dt: 'character varying' }),
    col('nc_updated_by', 'updated_by', 'LastModifiedBy', { system: true, dt: 'character varying' }),
    col('nc_order', 'nc_order', 'Order', { system: true, dt: 'decimal' }),
    col('Name', 'name', 'SingleLineText', { pv: true, dt: 'text' }),
    col('Score', 'score', 'Number', { dt: 'bigint' }),
    col('Price', 'price', 'Decimal', { dt: 'decimal' }),
    col('Done', 'done', 'Checkbox', { dt: 'boolean' }),
    col('Due', 'due', 'Date', { dt: 'date' }),
    col('At', 'at', 'DateTime', { dt: 'timestamp' }),
    col('Status', 'status', 'SingleSelect', { dt: 'text', colOptions: { options: [{ title: 'open' }, { title: 'closed' }] } }),
  ];
  return { ...tasks, table: { ...tasks.table, id: 'mplain00000000', table_name: 'plain', title: 'Plain', columns, views: [] } };
}

/** {@link plainContext} with a column named `ordinality` (see rowsSource). */
function oddContext(): TableContext {
  const plain = plainContext();
  const columns = [...plain.table.columns.map((c) => ({ ...c, id: c.id.replace('cp', 'co'), fk_model_id: 'modd0000000000' })),
    col('Ordinality', 'ordinality', 'SingleLineText', { dt: 'text', fk_model_id: 'modd0000000000' })];
  return { ...plain, table: { ...plain.table, id: 'modd0000000000', table_name: 'odd', title: 'Odd', columns } };
}

let h: DataHarness;

beforeAll(async () => {
  h = await startDataHarness();
  const db = knexFactory({ client: 'pg', connection: h.database.url });
  try {
    await createTasksTable(db, 'pbase');
    await db.schema.withSchema('pbase').createTable('plain', (t) => {
      t.increments('id', { primaryKey: true });
      t.timestamp('created_at', { useTz: true }).nullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).nullable().defaultTo(db.fn.now());
      t.string('created_by', 255).nullable();
      t.string('updated_by', 255).nullable();
      t.decimal('nc_order', 38, 10).nullable().index();
      t.text('name');
      t.bigInteger('score');
      t.decimal('price', 38, 2);
      t.boolean('done');
      t.date('due');
      t.timestamp('at', { useTz: false });
      t.text('status');
    });
    // The plain table plus a column named `ordinality` (the name the insert SQL's WITH ORDINALITY gives its position).
    await db.raw('create table pbase.odd (like pbase.plain including all)');
    await db.raw('alter table pbase.odd add column ordinality text');
  } finally {
    await db.destroy();
  }
  h.apis.tables.set('tasks', tasksContext('pbase'));
  h.apis.tables.set('plain', plainContext());
  h.apis.tables.set('odd', oddContext());
  h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
});
afterAll(async () => { await h?.stop(); });

interface QueryEvent { sql: string; __knexTxId?: string }

/** Runs a request and answers it with the SQL statements it sent (relay transactions excluded). */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const seen: QueryEvent[] = [];
  const listener = (q: QueryEvent) => { seen.push(q); };
  h.shared.dataDb.on('query', listener);
  try {
    const result = await work();
    // A request's transaction always names the base's schema; the relay's never do.
    const requestTx = new Set(seen.filter((q) => q.__knexTxId && q.sql.includes('"pbase"')).map((q) => q.__knexTxId));
    return { result, statements: seen.filter((q) => !q.__knexTxId || requestTx.has(q.__knexTxId)).map((q) => q.sql) };
  } finally {
    h.shared.dataDb.removeListener('query', listener);
  }
}

/** The read that answers the database's JSON text (record-json.sql.ts) rather than columns. */
const SQL_JSON = /^select \(\$1::text \|\| .* as j from /;
const body = (i: number) => ({ Name: `row ${i}`, Score: i, Price: 1.5, Done: i % 2 === 0, Due: '2024-05-17', At: '2024-05-17 10:11:12', Status: 'open' });
const get = (path: string) => request(h.server).get(path).set(h.as(editor));
const post = (path: string, payload: unknown) => request(h.server).post(path).set(h.as(editor)).send(payload as object);

describe('statements per request', () => {
  it('insert-one: one statement (the row and its outbox row together), after the first insert seeded the nc_order sequence', async () => {
    expect((await post(P, body(0))).status).toBe(200);
    const { result, statements } = await counted(() => post(P, body(1)));
    expect(result.status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with ins as \(\s*insert into "pbase"."plain"/);
    expect(statements[0]).toContain('nextval');
    expect(statements[0]).not.toMatch(/max\(/i);
  });

  it('bulk insert: one statement for 1000 rows', async () => {
    const { result, statements } = await counted(() => post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`, Array.from({ length: 1000 }, (_, i) => body(100 + i))));
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(1000);
    expect(statements).toHaveLength(1);
  });

  it('read-by-id: one statement', async () => {
    const { result, statements } = await counted(() => get(`${P}/2`));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ Id: 2, Name: 'row 1' });
    expect(statements).toHaveLength(1);
  });

  it('list-25: the page, plus (once per 5 s) the count when the page is full; a partial page counts itself', async () => {
    const first = await counted(() => get(P));
    expect(first.result.body.list).toHaveLength(25);
    expect(first.result.body.pageInfo.totalRows).toBe(1002);
    // page + planner estimate (pg_class) + exact count(*)
    expect(first.statements).toHaveLength(3);
    const again = await counted(() => get(P));
    expect(again.statements).toHaveLength(1);
    const partial = await counted(() => get(`${P}?where=(Score,lt,3)&sort=-Score`));
    expect(partial.result.body.list.map((r: { Score: number }) => r.Score)).toEqual([1, 0]);
    expect(partial.statements).toHaveLength(1);
  });

  it('a table the one statement cannot serve (attachments, unique column) keeps the transaction: BEGIN, unique check, nextval, INSERT, outbox, COMMIT', async () => {
    expect((await post(T, { Title: 'warm' })).status).toBe(200);
    const { result, statements } = await counted(() => post(T, { Title: 'second', Code: 'c-2' }));
    expect(result.status).toBe(200);
    expect(statements).toHaveLength(6);
    expect(statements.some((s) => /max\(/i.test(s))).toBe(false);
  });
});

describe('the one-statement insert', () => {
  it('its outbox event carries exactly the records the API answered', async () => {
    const before = h.events.length;
    const res = await post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`, [body(7), { Name: null, Done: null }]);
    expect(res.status).toBe(200);
    const deadline = Date.now() + 5000;
    while (!h.events.slice(before).some((e) => e.key === 'mplain00000000' && e.type === 'records.after.insert') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const event = h.events.slice(before).find((e) => e.key === 'mplain00000000' && e.type === 'records.after.insert')!;
    const decoded = decodeEvent(RecordsChangedSchema, event.payload);
    expect(decoded.type).toBe('records.after.insert');
    expect(decoded.tableTitle).toBe('Plain');
    expect(JSON.parse(decoded.rowsJson)).toEqual(res.body);
    expect(Object.keys(JSON.parse(decoded.rowsJson)[0])).toEqual(Object.keys(res.body[0]));
    expect(res.body[1]).toMatchObject({ Name: null, Done: false, Score: null, At: null });
    expect(res.body[0]).toMatchObject({ Price: 1.5, Due: '2024-05-17', At: '2024-05-17 10:11:12+00:00', Done: false });
    // Read back the same way.
    expect((await get(`${P}/${res.body[0].Id}`)).body).toEqual(res.body[0]);
  });

  it('answers a large batch whole and in order, as the JSON its event carries (the database sends it in pieces, never joined)', async () => {
    // ~230 kB of records, two- and three-byte UTF-8 included: five or more 48 kB pieces (insert-with-outbox.repository.ts).
    const names = Array.from({ length: 40 }, (_, i) => `${i}:` + 'aé€'.repeat(700 + i * 20) + `:${i}`);
    const before = h.events.length;
    const res = await post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`, names.map((Name, i) => ({ ...body(1000 + i), Name })));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body.map((r: { Name: string; Score: number }) => [r.Name, r.Score])).toEqual(names.map((n, i) => [n, 1000 + i]));
    const deadline = Date.now() + 5000;
    const mine = () => h.events.slice(before).find((e) => e.key === 'mplain00000000' && e.type === 'records.after.insert');
    while (!mine() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(decodeEvent(RecordsChangedSchema, mine()!.payload).rowsJson)).toEqual(res.body);
  });

  it('a table with a column named ordinality takes single and bulk inserts, in request order (the insert SQL\'s own position column once made it ambiguous)', async () => {
    const O = '/api/v1/db/data/noco/pbase0000000001/Odd';
    const one = await post(O, { ...body(1), Ordinality: 'first' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ Name: 'row 1', Ordinality: 'first' });
    const bulk = await post('/api/v1/db/data/bulk/noco/pbase0000000001/Odd', [3, 2, 4].map((i) => ({ ...body(i), Ordinality: `o${i}` })));
    expect(bulk.status).toBe(200);
    expect(bulk.body.map((r: { Ordinality: string }) => r.Ordinality)).toEqual(['o3', 'o2', 'o4']);
    const listed = (await get(`${O}?sort=Id`)).body.list as { Id: number; Ordinality: string }[];
    expect(listed.map((r) => r.Ordinality)).toEqual(['first', 'o3', 'o2', 'o4']);
    expect(listed.slice(1).map((r) => r.Id)).toEqual(bulk.body.map((r: { Id: number }) => r.Id));
  });

  it('gives new rows increasing nc_order in request order, and a bad row rejects the whole batch', async () => {
    const res = await post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`, [body(1), body(2), body(3)]);
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    const ids = res.body.map((r: { Id: number }) => r.Id);
    const stored = await db('pbase.plain').select('id', 'nc_order').whereIn('id', ids).orderBy('nc_order').finally(() => db.destroy());
    expect(stored.map((r) => r.id)).toEqual(ids);
    const count = async () => (await get(`${P}/count`)).body.count as number;
    const total = await count();
    const bad = await post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`, [body(1), { Score: 'not a number' }]);
    expect(bad.status).toBe(400);
    expect(await count()).toBe(total);
  });
  it('read-by-id answers the database\'s JSON of the record, equal (key order included) to the record the list presents in JS', async () => {
    const page = (await get(`${P}?limit=5`)).body.list as Record<string, unknown>[];
    // Strings JSON must escape (quotes, backslash, control characters, non-ASCII) and big and negative numbers.
    const tricky = (await post(P, { Name: 'quote " backslash \\ newline \n tab \t é ✓ 😀 \u0001 </script>', Score: -9007199254740991, Price: -12345678901234.56 })).body as { Id: number };
    const nulls = (await post(P, { Name: null, Done: null })).body as { Id: number };
    const listed = [...page, ...(await get(`${P}?where=(Id,in,${tricky.Id},${nulls.Id})&sort=Id`)).body.list];
    expect(listed.slice(-2).map((r) => r.Id)).toEqual([tricky.Id, nulls.Id]);
    // The insert's answer (the same SQL JSON, built by the insert statement) is the listed record too.
    expect(tricky).toEqual(listed[listed.length - 2]);
    expect(listed[listed.length - 2]).toMatchObject({ Name: 'quote " backslash \\ newline \n tab \t é ✓ 😀 \u0001 </script>', Score: -9007199254740991, Price: -12345678901234.56 });
    for (const record of listed) {
      const { result, statements } = await counted(() => get(`${P}/${record.Id}`));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(SQL_JSON);
      expect(result.body).toEqual(record);
      expect(Object.keys(result.body)).toEqual(Object.keys(record));
    }
    expect(listed[listed.length - 1]).toMatchObject({ Name: null, Done: false, Score: null, At: null, Due: null });
    const missing = await get(`${P}/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'ERR_RECORD_NOT_FOUND' });
    // A table with a column only JS formats (attachments) reads through the presenter.
    const task = (await post(T, { Title: 'presented' })).body as { Id: number };
    const presented = await counted(() => get(`${T}/${task.Id}`));
    expect(presented.result.body).toMatchObject({ Id: task.Id, Title: 'presented' });
    expect(presented.statements.some((q) => SQL_JSON.test(q))).toBe(false);
  });

  it('v3 read-by-id answers the database\'s `{ id, fields }` JSON, equal (key order included) to the v3 list\'s record', async () => {
    const V3 = '/api/v3/data/pbase0000000001/mplain00000000/records';
    const tricky = (await post(P, { Name: 'quote " backslash \\ é 😀 \u0001', Score: -9007199254740991, Price: -1.5 })).body as { Id: number };
    const nulls = (await post(P, { Name: null, Done: null })).body as { Id: number };
    const listed = (await get(`${V3}?where=(Id,in,1,2,${tricky.Id},${nulls.Id})&sort=${encodeURIComponent('[{"field":"Id","direction":"asc"}]')}`)).body.records as { id: number; fields: Record<string, unknown> }[];
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(listed.at(-1)).toEqual({ id: nulls.Id, fields: expect.objectContaining({ Name: null, Done: false, Score: null }) });
    for (const record of listed) {
      const { result, statements } = await counted(() => get(`${V3}/${record.id}`));
      expect(result.status).toBe(200);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^select \('\{"id":' \|\| .* as j from /);
      expect(result.body).toEqual(record);
      expect(Object.keys(result.body)).toEqual(['id', 'fields']);
      expect(Object.keys(result.body.fields)).toEqual(Object.keys(record.fields));
      expect(Object.keys(record.fields)).not.toContain('Id');
    }
    // `fields` picks fields (the key still answers as `id`); a missing record is 404.
    const picked = await get(`${V3}/${tricky.Id}?fields=Name`);
    expect(picked.body).toEqual({ id: tricky.Id, fields: { Name: 'quote " backslash \\ é 😀 \u0001' } });
    expect((await get(`${V3}/999999`)).status).toBe(404);
    // A table with a column only JS formats (attachments) reads through the presenter, in the same shape.
    const task = (await post(T, { Title: 'presented' })).body as { Id: number };
    const presented = await counted(() => get(`/api/v3/data/pbase0000000001/${tasksContext('pbase').table.id}/records/${task.Id}`));
    expect(presented.result.body).toMatchObject({ id: task.Id, fields: { Title: 'presented' } });
    expect(presented.result.body.fields).not.toHaveProperty('Id');
    expect(presented.statements.some((q) => q.startsWith('select (\'{"id":'))).toBe(false);
  });

  it('a bulk insert sends the database\'s JSON as is: nothing parses it (no sync hook wants the rows)', async () => {
    // The answer is read as text (supertest would JSON.parse it here, in the same process).
    const asText = (res: unknown, done: (err: Error | null, body: string) => void) => {
      let text = '';
      const stream = res as NodeJS.ReadableStream;
      stream.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      stream.on('end', () => done(null, text));
    };
    const send = () => request(h.server).post(`/api/v1/db/data/bulk/noco/pbase0000000001/Plain`).set(h.as(editor))
      .send(Array.from({ length: 200 }, (_, i) => body(5000 + i))).buffer(true).parse(asText);
    expect((await send()).status).toBe(200); // the first write of the table learns it has no sync hook
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const res = await send();
      const text = res.body as string;
      expect(res.status).toBe(200);
      expect(text.startsWith('[{')).toBe(true);
      expect(text.match(/"Id" ?:/g)).toHaveLength(200);
      // The request body is parsed (200 rows in); the 200 records out never are.
      expect(parse.mock.calls.filter(([arg]) => typeof arg === 'string' && arg.includes('"Id"'))).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });
});

/**
 * Single inserts that reach the statement in the same turn of the event loop,
 * as concurrent requests do under load: the route's guard then the insert use
 * case called for each body in one tick (the table is open, the role and the
 * sequence known already, so nothing waits on I/O before the statement).
 * Settles each in input order.
 */
function sameTurnInserts(bodies: Record<string, unknown>[], users = [editor]): Promise<PromiseSettledResult<ApiRecord>[]> {
  const authorizer = contractAuthorizer(h.ports.baseAccess, dataScopes(h.ports));
  const input = { params: { orgs: 'noco', baseName: 'pbase0000000001', tableName: 'Plain' }, query: {}, body: undefined };
  return Promise.allSettled(bodies.map(async (b, i) => {
    const principal = { kind: 'user' as const, roles: [], ...users[i % users.length] };
    const scope = await authorizer.authorize(recordsOfTable.create, principal, input) as TableInScope;
    return (await insertRecordsAs(h.ports, scope, [b], { bulk: false })).records()[0];
  }));
}

const answered = (r: PromiseSettledResult<ApiRecord>) => (r.status === 'fulfilled' ? r.value : undefined) as Record<string, unknown>;

/** The records.after.insert events of Plain whose rows carry one of these names, decoded. */
async function insertEventsNamed(names: string[], expected: number): Promise<{ eventId: string; userId?: string; rows: Record<string, unknown>[] }[]> {
  const pick = () => h.events.filter((e) => e.key === 'mplain00000000' && e.type === 'records.after.insert')
    .map((e) => ({ e, decoded: decodeEvent(RecordsChangedSchema, e.payload) }))
    .map(({ e, decoded }) => ({ eventId: e.id, userId: decoded.user?.id, rows: JSON.parse(decoded.rowsJson) as Record<string, unknown>[] }))
    .filter((e) => e.rows.some((r) => names.includes(r.Name as string)));
  const deadline = Date.now() + 5000;
  while (pick().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100)); // a duplicate would arrive by now
  return pick();
}

describe('single inserts arriving together share one statement (group commit)', () => {
  it('eight inserts in one turn: one statement; each answer is its own row, stored once, with exactly one event carrying exactly that row', async () => {
    expect((await post(P, body(0))).status).toBe(200);
    const names = Array.from({ length: 8 }, (_, i) => `together ${i}`);
    // Two users alternate: each event must name the user of its own row.
    const other = { id: 'useditor0000002', email: 'ed2@example.com' };
    h.apis.roles.set(`pbase0000000001:${other.id}`, 'editor');
    const { result, statements } = await counted(() => sameTurnInserts(names.map((Name, i) => ({ ...body(i), Name, Score: 700 + i })), [editor, other]));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with ins as \(\s*insert into "pbase"."plain"[\s\S]*unnest/);
    expect(result.map((r) => r.status)).toEqual(names.map(() => 'fulfilled'));
    const records = result.map(answered);
    expect(records.map((r) => [r.Name, r.Score])).toEqual(names.map((n, i) => [n, 700 + i]));
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    const stored = await db('pbase.plain').select('id', 'name', 'score', 'created_by').whereIn('name', names).orderBy('id').finally(() => db.destroy());
    expect(stored.map((r) => r.created_by)).toEqual(stored.map((r) => (Number(r.score) % 2 === 0 ? editor.id : other.id)));
    expect(stored.map((r) => [r.id, r.name, Number(r.score)]).sort((a, b) => (a[0] as number) - (b[0] as number)))
      .toEqual(records.map((r) => [r.Id, r.Name, r.Score]).sort((a, b) => (a[0] as number) - (b[0] as number)));
    // The API reads back exactly what each insert answered.
    for (const record of records) expect((await get(`${P}/${record.Id}`)).body).toEqual(record);
    const events = await insertEventsNamed(names, 8);
    expect(events).toHaveLength(8);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(8);
    for (const record of records) {
      const carrying = events.filter((e) => e.rows.some((r) => r.Id === record.Id));
      expect(carrying).toHaveLength(1);
      expect(carrying[0].rows).toEqual([record]);
      expect(carrying[0].userId).toBe(stored.find((r) => r.id === record.Id)?.created_by);
    }
  });

  it(`a batch holds at most ${MAX_INSERT_BATCH} inserts: ${MAX_INSERT_BATCH + 6} in one turn take two statements, every row once`, async () => {
    const names = Array.from({ length: MAX_INSERT_BATCH + 6 }, (_, i) => `many ${i}`);
    const { result, statements } = await counted(() => sameTurnInserts(names.map((Name, i) => ({ ...body(1000 + i), Name }))));
    expect(statements).toHaveLength(2);
    expect(result.map((r) => answered(r)?.Name)).toEqual(names);
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    const stored = await db('pbase.plain').select('id', 'name').whereIn('name', names).finally(() => db.destroy());
    expect(stored.map((r) => [r.id, r.name]).sort((a, b) => a[0] - b[0])).toEqual(result.map((r) => [answered(r).Id, answered(r).Name]).sort((a, b) => (a[0] as number) - (b[0] as number)));
  });

  it('a row PostgreSQL refuses fails alone, with the answer it gets on its own; the others of its statement commit, each with its event', async () => {
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    try {
      expect((await post(P, body(0))).status).toBe(200); // the table is open and its sequence known
      await db.raw('ALTER TABLE pbase.plain ADD CONSTRAINT score_not_13 CHECK (score IS DISTINCT FROM 13)');
      const [alone] = await sameTurnInserts([{ ...body(13), Name: 'refused alone' }]);
      expect(alone.status).toBe('rejected');
      const aloneError = (alone as PromiseRejectedResult).reason as { code?: string; message: string };
      expect(aloneError.code).toBe('23514');
      const viaApi = await post(P, { ...body(13), Name: 'refused via the API' });
      expect([viaApi.status, viaApi.body.error]).toEqual([400, 'ERR_INVALID_VALUE_FOR_FIELD']);
      const names = Array.from({ length: 6 }, (_, i) => `refused batch ${i}`);
      const { result, statements } = await counted(() => sameTurnInserts(names.map((Name, i) => ({ ...body(i), Name, Score: i === 3 ? 13 : 800 + i }))));
      expect(result.map((r) => r.status)).toEqual(names.map((_, i) => (i === 3 ? 'rejected' : 'fulfilled')));
      const batchedError = (result[3] as PromiseRejectedResult).reason as { code?: string; message: string };
      expect([batchedError.code, batchedError.message]).toEqual([aloneError.code, aloneError.message]);
      // The batch, then each insert on its own.
      expect(statements).toHaveLength(1 + 6);
      const stored = await db('pbase.plain').select('id', 'name').whereIn('name', names);
      expect(stored.map((r) => r.name).sort()).toEqual(names.filter((_, i) => i !== 3).sort());
      const events = await insertEventsNamed(names, 5);
      expect(events.map((e) => e.rows.map((r) => r.Name))).toHaveLength(5);
      expect(events.flatMap((e) => e.rows.map((r) => r.Name)).sort()).toEqual(names.filter((_, i) => i !== 3).sort());
    } finally {
      await db.raw('ALTER TABLE pbase.plain DROP CONSTRAINT IF EXISTS score_not_13');
      await db.destroy();
    }
  });

  it('a batch whose connection dies is not run again: the failure may have followed the commit, so every member gets it and nothing is inserted twice', async () => {
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    try {
      expect((await post(P, body(0))).status).toBe(200); // the table is open and its sequence known
      await db.raw(`CREATE OR REPLACE FUNCTION pbase.slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.name = 'slow' THEN PERFORM pg_sleep(0.5); END IF; RETURN NEW; END $$`);
      await db.raw('CREATE TRIGGER slow_insert BEFORE INSERT ON pbase.plain FOR EACH ROW EXECUTE FUNCTION pbase.slow_insert()');
      const names = ['slow', 'dies 1', 'dies 2', 'dies 3'];
      const killer = (async () => {
        for (let i = 0; i < 50; i++) {
          await new Promise((r) => setTimeout(r, 20));
          const killed = await db.raw(`SELECT pg_terminate_backend(pid) AS k FROM pg_stat_activity
            WHERE state = 'active' AND query LIKE 'with ins as%' AND pid <> pg_backend_pid()`);
          if (killed.rows.length) return killed.rows.length;
        }
        return 0;
      })();
      const { result, statements } = await counted(() => sameTurnInserts(names.map((Name, i) => ({ ...body(i), Name }))));
      expect(await killer).toBe(1);
      expect(statements).toHaveLength(1);
      expect(result.map((r) => r.status)).toEqual(names.map(() => 'rejected'));
      const reasons = result.map((r) => (r as PromiseRejectedResult).reason);
      expect(new Set(reasons).size).toBe(1);
      expect(await db('pbase.plain').whereIn('name', names)).toEqual([]);
    } finally {
      await db.raw('DROP TRIGGER IF EXISTS slow_insert ON pbase.plain');
      await db.destroy();
    }
  });
});
