import knexFactory, { type Knex } from 'knex';
import { Api } from 'nocodb-sdk';
import { TestApi, backendsRequired, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { mariaDbDatabase, mariaDbSource, sqliteSource } from './source-variants.helpers';

/**
 * Audit findings 4, 5 and 9 (issue 28) through the API, on each kind of source:
 * a value an editor writes in a linked table never makes the parent table
 * unreadable (the overflowing formula cell is blank), nested REPT stays within
 * the text cap, and a formula that would fail every read is refused when saved.
 */
let stack: TestStack;
let token: string;
const cleanups: (() => Promise<void>)[] = [];

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Variant {
  name: string;
  /** The base's source (undefined: not configured here). */
  body: () => Promise<Record<string, unknown> | undefined>;
  /** Drops a physical column behind the service's back (undefined: no direct access). */
  dropColumn?: (table: string, column: string) => Promise<void>;
}

let mysqlDb: Knex | undefined;
const variants: Variant[] = [
  {
    name: 'default PostgreSQL source', body: async () => ({}),
    dropColumn: async (table, column) => {
      const db = knexFactory({ client: 'pg', connection: stack.database.url });
      try {
        const [{ table_schema: schema }] = (await db('information_schema.columns').where({ table_name: table, column_name: column }).select('table_schema')) as { table_schema: string }[];
        await db.schema.withSchema(schema).alterTable(table, (t) => t.dropColumn(column));
      } finally { await db.destroy(); }
    },
  },
  { name: 'external SQLite', body: async () => sqliteSource('safety') },
  {
    name: 'external MariaDB', body: async () => {
      const connection = await mariaDbDatabase('tabula_safety', cleanups);
      if (!connection) return undefined;
      mysqlDb = knexFactory({ client: 'mysql2', connection });
      cleanups.unshift(async () => { await mysqlDb?.destroy(); }); // before its database is dropped
      return mariaDbSource(connection);
    },
    dropColumn: async (table, column) => { await mysqlDb!.schema.alterTable(table, (t) => t.dropColumn(column)); },
  },
];

beforeAll(async () => {
  // External sources on this machine's databases: private addresses, allowed only by the flag.
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
  token = (await new TestApi(stack.url).signUp('e2e', 'formula-safety-e2e@example.com')).token;
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  for (const c of cleanups) await c().catch(() => undefined);
});

describe.each(variants)('formula safety on $name', ({ name, body, dropColumn }) => {
  let api: Api<unknown>;
  let baseId = '';
  let parents = '';
  let skip = false;
  const column = (table: string, b: unknown) => raw('POST', `/api/v1/db/meta/tables/${table}/columns`, b);
  const list = () => raw('GET', `/api/v1/db/data/noco/${baseId}/Parents?sort=Id`);

  beforeAll(async () => {
    api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
    const extra = await body();
    if (!extra) {
      if (backendsRequired()) throw new Error('MYSQL_URL is not set (REQUIRE_BACKENDS)');
      skip = true;
      return;
    }
    baseId = (await raw('POST', '/api/v1/db/meta/projects', { title: `Safety ${name}`, ...extra })).body.id;
    const table = async (title: string) => (await api.dbTable.create(baseId, {
      title, table_name: title.toLowerCase(),
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
    } as never)).id as string;
    parents = await table('Parents');
    const kids = await table('Kids');
    const amount = await column(kids, { title: 'Amount', uidt: 'Number' });
    const share = await column(kids, { title: 'Share', uidt: 'Percent' });
    const link = await column(parents, { title: 'Kids', uidt: 'Links', parentId: parents, childId: kids, type: 'hm' });
    for (const [title, target] of [['Total', amount.body.id], ['ShareSum', share.body.id]]) {
      expect((await column(parents, { title, uidt: 'Rollup', fk_relation_column_id: link.body.id, fk_rollup_column_id: target, rollup_function: 'sum' })).status).toBe(200);
    }
    const formulas: [string, string][] = [
      ['Cube', '{Total} * {Total} * {Total} * {Total} * {Total}'],
      ['Label', "CONCAT('Total: ', {Total} * 1000)"],
      ['Head', 'LEFT({Name}, {Total})'],
      ['Twice', '{ShareSum} * 2'],
      ['Wall', 'REPT(REPT(REPT({Name}, 1000), 1000), 1000)'],
    ];
    for (const [title, formula] of formulas) expect((await column(parents, { title, uidt: 'Formula', formula_raw: formula })).status).toBe(200);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Parents', [{ Name: 'Ann' }, { Name: 'Bob' }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Kids', [{ Name: 'k1', Amount: 5, Share: 0.5 }, { Name: 'k2', Amount: 5, Share: 0.5 }, { Name: 'k3', Amount: 5, Share: 0.5 }]);
    for (const [parent, kid] of [['1', '1'], ['1', '2'], ['2', '3']]) await api.dbTableRow.nestedAdd('noco', baseId, 'Parents', parent, 'hm', 'Kids', kid);
  }, 120_000);

  it('finding 4: an editor writing large numbers in a linked table blanks only the overflowing cells of the parent table', async () => {
    if (skip) return;
    const before = await list();
    expect(before.status).toBe(200);
    expect(before.body.list.map((r: any) => [r.Total, r.Cube, r.Label, r.Head, r.Twice])).toEqual([
      [10, 100000, 'Total: 10000', 'Ann', 2], [5, 3125, 'Total: 5000', 'Bob', 1],
    ]);
    // The largest Number and Percent values the API accepts, twice under Ann.
    for (const id of [1, 2]) await api.dbTableRow.update('noco', baseId, 'Kids', id, { Amount: Number.MAX_SAFE_INTEGER, Share: 1e308 });
    const after = await list();
    expect({ status: after.status, message: after.body.msg }).toEqual({ status: 200, message: undefined });
    const [ann, bob] = after.body.list;
    expect(ann.Total).toBe(2 * Number.MAX_SAFE_INTEGER);
    expect(ann.Cube).toBeCloseTo((2 * Number.MAX_SAFE_INTEGER) ** 5, -70);
    expect(ann.Label).toMatch(/^Total: 1\.?8014398509/);
    expect(ann.Head).toBe('Ann');
    // 2 × 1e308 is past the double's range: that cell is blank. (MariaDB itself sums such doubles as 0.)
    if (name !== 'external MariaDB') expect(ann.Twice).toBeNull();
    expect([bob.Total, bob.Cube, bob.Label, bob.Head, bob.Twice]).toEqual([5, 3125, 'Total: 5000', 'Bob', 1]);
    // Filters and sorts over the same values answer too.
    const filtered = await raw('GET', `/api/v1/db/data/noco/${baseId}/Parents?where=${encodeURIComponent('(Twice,blank)')}&sort=-Cube`);
    expect(filtered.status).toBe(200);
  });

  it('finding 5: nested REPT stays within the 10,000-character text cap', async () => {
    if (skip) return;
    const page = await list();
    expect(page.status).toBe(200);
    expect(page.body.list.map((r: any) => r.Wall.length)).toEqual([9000, 9000]);
    expect(page.body.list.every((r: any) => r.Wall.length <= 10_000)).toBe(true);
  });

  it('finding 9: a formula that would fail every read is refused when saved, naming the problem', async () => {
    if (skip) return;
    const bad = await column(parents, { title: 'Bad', uidt: 'Formula', formula_raw: "DATEADD('2024-13-45', 1, 'day')" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_INVALID_FORMULA' });
    expect(bad.body.msg).toMatch(/invalid date "2024-13-45"/);
    expect((await list()).status).toBe(200);
  });

  it('finding 9: a formula is run on the table when saved; one the database refuses is a 400 naming its error', async () => {
    if (skip || !dropColumn) return;
    const ghost = await column(parents, { title: 'Ghost', uidt: 'Number', column_name: 'ghost' });
    expect(ghost.status).toBe(200);
    // The physical column disappears behind the service's back: the metadata still lists it.
    await dropColumn('parents', 'ghost');
    const refused = await column(parents, { title: 'UsesGhost', uidt: 'Formula', formula_raw: '{Ghost} + 1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_INVALID_FORMULA');
    expect(refused.body.msg).toMatch(/fails when run on table 'Parents': .*ghost/i);
    const meta = await raw('GET', `/api/v1/db/meta/tables/${parents}`);
    expect(meta.body.columns.some((c: { title: string }) => c.title === 'UsesGhost')).toBe(false);
  });
});
