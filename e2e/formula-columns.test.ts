import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

let stack: TestStack;
let api: Api<unknown>;
let token: string;
let baseId: string;
let tableId: string;
const TABLE = 'Orders';

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const rows = (where = '', extra = '') => raw('GET', `/api/v1/db/data/noco/${baseId}/${TABLE}?limit=50${where ? `&where=${encodeURIComponent(where)}` : ''}${extra}`);

beforeAll(async () => {
  stack = await startTestStack(allServices);
  token = (await new TestApi(stack.url).signUp('e2e', 'formula-e2e@example.com')).token;
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  baseId = (await api.base.create({ title: 'Formulas' })).id as string;
  const table = await api.dbTable.create(baseId, {
    title: TABLE, table_name: 'orders',
    columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'item', title: 'Item', uidt: 'SingleLineText' },
      { column_name: 'qty', title: 'Qty', uidt: 'Number' },
      { column_name: 'price', title: 'Price', uidt: 'Decimal' },
      { column_name: 'due', title: 'Due', uidt: 'Date' },
    ],
  } as never);
  tableId = table.id as string;
  await api.dbTableRow.bulkCreate('noco', baseId, TABLE, [
    { Item: 'apple', Qty: 3, Price: 2.5, Due: '2024-06-15' },
    { Item: 'pear', Qty: 10, Price: 1, Due: '2024-01-31' },
    { Item: 'fig', Qty: null, Price: 4, Due: null },
  ]);
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('Formula columns', () => {
  it('creates formula columns (colOptions or NocoDB top-level formula_raw) and computes them in list, read and insert', async () => {
    const total = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Total', uidt: 'Formula', colOptions: { formula: '{Qty} * {Price}' } });
    expect(total.status).toBe(200);
    const label = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Label', uidt: 'Formula', formula_raw: "CONCAT(UPPER({Item}), ' x', {Qty})" });
    expect(label.status).toBe(200);
    const next = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Next', uidt: 'Formula', formula_raw: "DATEADD({Due}, 1, 'month')" });
    expect(next.status).toBe(200);
    const big = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Big', uidt: 'Formula', formula_raw: 'IF({Total} > 5, TRUE, FALSE)' });
    expect(big.status).toBe(200);
    const meta = await raw('GET', `/api/v1/db/meta/tables/${tableId}`);
    const totalColumn = meta.body.columns.find((c: { title: string }) => c.title === 'Total');
    expect(totalColumn.colOptions.formula_raw).toBe('{Qty} * {Price}');
    expect(totalColumn.colOptions.formula).toMatch(/^\{c[a-z0-9]+\} \* \{c[a-z0-9]+\}$/);

    const list = await rows();
    expect(list.status).toBe(200);
    expect(list.body.list.map((r: Record<string, unknown>) => [r.Total, r.Label, r.Next, r.Big])).toEqual([
      [7.5, 'APPLE x3', '2024-07-15', true],
      [10, 'PEAR x10', '2024-02-29', true],
      [null, 'FIG x', null, false],
    ]);
    const created = (await api.dbTableRow.create('noco', baseId, TABLE, { Item: 'kiwi', Qty: 2, Price: 1.25, Total: 999 })) as Record<string, unknown>;
    expect(created).toMatchObject({ Item: 'kiwi', Total: 2.5, Label: 'KIWI x2', Big: false });
    expect(await api.dbTableRow.read('noco', baseId, TABLE, created.Id as number)).toMatchObject({ Total: 2.5 });
    expect(await api.dbTableRow.update('noco', baseId, TABLE, created.Id as number, { Qty: 4 })).toMatchObject({ Total: 5 });
  });

  it('filters and sorts by formula values', async () => {
    const filtered = await rows('(Total,gt,5)');
    expect(filtered.body.list.map((r: { Item: string }) => r.Item).sort()).toEqual(['apple', 'pear']);
    const text = await rows('(Label,like,PEAR)');
    expect(text.body.list.map((r: { Item: string }) => r.Item)).toEqual(['pear']);
    const sorted = await rows('', '&sort=-Total');
    expect(sorted.body.list.map((r: { Item: string }) => r.Item)).toEqual(['pear', 'apple', 'kiwi', 'fig']);
    const blank = await rows('(Total,blank)');
    expect(blank.body.list.map((r: { Item: string }) => r.Item)).toEqual(['fig']);
  });

  it('refuses bad formulas with 400 naming the position, and keeps nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ formula_raw: '{Qty} +' }, /position 8: unexpected end/],
      [{ formula_raw: '{Nope} * 2' }, /unknown field \{Nope\}/],
      [{ formula_raw: 'LEN(1, 2)' }, /LEN takes 1 argument/],
      [{ formula_raw: '{Item} * 2' }, /needs numbers, not string/],
      [{ formula_raw: "CONCAT('a'; DROP TABLE orders; --')" }, /unexpected character ';'/],
      [{ colOptions: {} }, /needs a formula/],
      [{ formula_raw: 'A'.repeat(5000) }, /longer than 4000/],
      [{ formula_raw: `{Qty}${' + {Qty}'.repeat(1250)}` }, /longer than 4000/],
      [{ formula_raw: `${'ABS('.repeat(60)}{Qty}${')'.repeat(60)}` }, /nested deeper than/],
      [{ formula_raw: `${'('.repeat(200)}1${')'.repeat(200)}` }, /nested deeper than/],
      [{ formula_raw: 'MEDIAN({Qty})' }, /unknown function/i],
      [{ formula_raw: "'unterminated" }, /position/],
      // Audit finding 9: these passed the save-time check and then failed every read (or read blank).
      [{ formula_raw: "DATEADD('2024-13-45', 1, 'day')" }, /position 9: invalid date "2024-13-45"/],
      [{ formula_raw: 'HOUR("2024-02-30 10:00")' }, /invalid date "2024-02-30 10:00"/],
      [{ formula_raw: 'DAY({Item})' }, /DAY: argument 1 must be a date, not string/],
      [{ formula_raw: '-BLANK() + 1e999' }, /number too large/],
    ];
    for (const [body, message] of cases) {
      const res = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Bad', uidt: 'Formula', ...(body as object) });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: res.body.error });
      expect(res.body.msg).toMatch(message);
    }
    const meta = await raw('GET', `/api/v1/db/meta/tables/${tableId}`);
    expect(meta.body.columns.some((c: { title: string }) => c.title === 'Bad')).toBe(false);
  });

  it('keeps SQL text, quotes and braces inside string literals as literals', async () => {
    const texts = ["'); DROP TABLE orders; --", '{Qty} OR 1=1', '$1 ?? ? :name "x"'];
    const formula = `CONCAT({Item}, "${texts[0]}", '|', '${texts[1]}', '|', '${texts[2]}')`;
    const created = await raw('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { title: 'Lit', uidt: 'Formula', formula_raw: formula });
    expect(created.status).toBe(200);
    const list = await rows('(Item,eq,pear)');
    expect(list.status).toBe(200);
    expect(list.body.list[0].Lit).toBe(`pear${texts[0]}|${texts[1]}|${texts[2]}`);
    // The table is still there, whole, and the literal filters like any text.
    expect((await rows()).body.list.length).toBe(4);
    const filtered = await rows(`(Lit,like,DROP TABLE)`);
    expect(filtered.body.list.length).toBe(4);
    expect((await raw('DELETE', `/api/v1/db/meta/columns/${created.body.id}`)).status).toBe(200);
  });

  it('refuses a cycle between formulas and deleting a column a formula uses; updates a formula', async () => {
    const meta = await raw('GET', `/api/v1/db/meta/tables/${tableId}`);
    const byTitle = (t: string) => meta.body.columns.find((c: { title: string }) => c.title === t);
    const cycle = await raw('PATCH', `/api/v1/db/meta/columns/${byTitle('Total').id}`, { title: 'Total', uidt: 'Formula', formula_raw: '{Big} + 1' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.msg).toMatch(/cycle/);
    const drop = await raw('DELETE', `/api/v1/db/meta/columns/${byTitle('Qty').id}`);
    expect(drop.status).toBe(400);
    expect(drop.body.msg).toMatch(/used by formula 'Total'/);
    const update = await raw('PATCH', `/api/v1/db/meta/columns/${byTitle('Total').id}`, { title: 'Total', uidt: 'Formula', formula_raw: 'ROUND({Qty} * {Price} * 1.1, 1)' });
    expect(update.status).toBe(200);
    const list = await rows('(Item,eq,apple)');
    expect(list.body.list[0].Total).toBe(8.3);
    const convert = await raw('PATCH', `/api/v1/db/meta/columns/${byTitle('Label').id}`, { title: 'Label', uidt: 'SingleLineText' });
    expect(convert.status).toBe(400);
  });
});
