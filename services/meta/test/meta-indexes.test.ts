import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, describeWithBackend, type TestDatabase } from '@tabula/testing';
import { startMetaHarness, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
let h: MetaHarness;

beforeAll(async () => { h = await startMetaHarness({ env: { SVC_ALLOW_LOCAL_SOURCES: 'true' } }); });
afterAll(async () => { await h.stop(); });

/** Index name → column names, read from the database's own catalogue (not through the API). */
type Catalogue = (tableName: string) => Promise<Map<string, string[]>>;

function pgCatalogue(db: () => Knex): Catalogue {
  return async (tableName) => {
    const { rows } = await db().raw(`select i.relname as name, array(select a.attname::text from unnest(ix.indkey::int2[]) with ordinality k(n, o)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.n order by k.o) as cols
      from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_class i on i.oid = ix.indexrelid where t.relname = ?`, [tableName]);
    // The same check through pg_indexes, the view the task names.
    const named = (await db().raw('select indexname from pg_indexes where tablename = ?', [tableName])).rows.map((r: { indexname: string }) => r.indexname);
    expect(named.sort()).toEqual(rows.map((r: { name: string }) => r.name).sort());
    return new Map(rows.map((r: { name: string; cols: string[] }) => [r.name, r.cols]));
  };
}

function mysqlCatalogue(db: () => Knex): Catalogue {
  return async (tableName) => {
    const [rows] = await db().raw(`select index_name as name, column_name as col from information_schema.statistics
      where table_schema = database() and table_name = ? order by index_name, seq_in_index`, [tableName]);
    const out = new Map<string, string[]>();
    for (const r of rows as { name: string; col: string }[]) out.set(r.name, [...(out.get(r.name) ?? []), r.col]);
    return out;
  };
}

function sqliteCatalogue(db: () => Knex): Catalogue {
  return async (tableName) => {
    const rows = await db().raw("select name from sqlite_master where type = 'index' and tbl_name = ?", [tableName]) as { name: string }[];
    const out = new Map<string, string[]>();
    for (const { name } of rows) out.set(name, (await db().raw('select name from pragma_index_info(?) order by seqno', [name]) as { name: string }[]).map((c) => c.name));
    return out;
  };
}

/** The index tests, run against a base made by `makeBase`, checked in the dialect's catalogue. */
function indexMatrix(makeBase: () => Promise<string>, catalogue: Catalogue, db: () => Knex): void {
  let baseId: string;
  let table: { id: string; table_name: string; columns: { id: string; title: string; column_name: string }[]; views: { id: string }[] };
  const su = () => h.superUser;
  const col = (title: string) => table.columns.find((c) => c.title === title)!;
  const cn = (title: string) => col(title).column_name;
  /** The user table straight through the dialect's driver (meta never writes rows). */
  const rowsOf = async () => {
    const k = db();
    const schema = k.client.config.client === 'pg'
      ? (await k.raw('select table_schema as s from information_schema.tables where table_name = ?', [table.table_name])).rows[0].s as string : undefined;
    // A function: a knex builder is a thenable, awaiting it would run it.
    return () => (schema ? k.withSchema(schema).table(table.table_name) : k.table(table.table_name));
  };

  beforeAll(async () => {
    baseId = await makeBase();
    const res = await h.http.post(`${P}/projects/${baseId}/tables`).set(su()).send({
      title: 'Tasks', table_name: `tasks_${randomBytes(3).toString('hex')}`,
      columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { title: 'Name', uidt: 'SingleLineText' }, { title: 'Score', uidt: 'Number' }, { title: 'Due', uidt: 'Date' },
        { title: 'Mail', uidt: 'Email' }, { title: 'Notes', uidt: 'LongText' }, { title: 'Done', uidt: 'Checkbox' },
      ],
    }).expect(200);
    table = res.body;
    await h.http.post(`${P}/tables/${table.id}/columns`).set(su()).send({ title: 'Twice', uidt: 'Formula', formula_raw: '{Score} * 2' }).expect(200);
    table = (await h.http.get(`${P}/tables/${table.id}`).set(su()).expect(200)).body;
  });

  it('creates an index on request (by id and by title), lists it and it exists in the catalogue', async () => {
    const res = await h.http.post(`${P}/tables/${table.id}/indexes`).set(su()).send({ columns: [col('Score').id, 'Due'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fk_model_id: table.id, unique: false, origin: 'manual', columns: [{ id: col('Score').id, column_name: cn('Score') }, { title: 'Due', column_name: cn('Due') }] });
    expect((await catalogue(table.table_name)).get(res.body.id)).toEqual([cn('Score'), cn('Due')]);
    const list = (await h.http.get(`${P}/tables/${table.id}/indexes`).set(su()).expect(200)).body.list;
    expect(list.find((i: { id: string }) => i.id === res.body.id)).toEqual(res.body);
    expect(list.find((i: { origin: string }) => i.origin === 'primary')).toMatchObject({ unique: true, columns: [{ column_name: 'id' }] });
    expect(list.find((i: { origin: string }) => i.origin === 'system')).toMatchObject({ columns: [{ column_name: 'nc_order' }] });
  });

  it('a unique index refuses equal values from then on; drop removes it from the catalogue', async () => {
    const res = await h.http.post(`${P}/tables/${table.id}/indexes`).set(su()).send({ columns: ['Mail'], unique: true }).expect(200);
    expect(res.body).toMatchObject({ unique: true, origin: 'manual' });
    expect((await catalogue(table.table_name)).get(res.body.id)).toEqual([cn('Mail')]);
    await (await rowsOf())().insert({ [cn('Mail')]: 'same@example.com', nc_order: 1 });
    await expect((await rowsOf())().insert({ [cn('Mail')]: 'same@example.com', nc_order: 2 })).rejects.toThrow();
    await (await rowsOf())().where(cn('Mail'), 'same@example.com').delete();
    await h.http.delete(`${P}/tables/${table.id}/indexes/${res.body.id}`).set(su()).expect(200);
    expect((await catalogue(table.table_name)).has(res.body.id)).toBe(false);
    await h.http.delete(`${P}/tables/${table.id}/indexes/${res.body.id}`).set(su()).expect(404);
  });

  it('refuses bad input with 4xx: unknown, virtual, long-text, repeated or too many columns, duplicate index, foreign index', async () => {
    const post = (body: object) => h.http.post(`${P}/tables/${table.id}/indexes`).set(su()).send(body);
    const cases: [object, number][] = [
      [{ columns: ['Nope'] }, 400], [{ columns: ['Twice'] }, 400], [{ columns: ['Notes'] }, 400], [{ columns: ['Score', 'Score'] }, 400],
      [{ columns: Array(9).fill('Score') }, 400], [{ columns: [] }, 400], [{}, 400], [{ columns: 'Score' }, 400], [{ columns: ['Score'], unique: 'yes' }, 400],
      [{ columns: ['Score', 'Due'] }, 409], [{ columns: ['Id'] }, 409],
    ];
    for (const [body, status] of cases) {
      const res = await post(body);
      expect([body, res.status]).toEqual([body, status]);
      expect(res.body).toMatchObject({ error: expect.any(String), msg: expect.any(String) });
    }
    const primary = (await h.http.get(`${P}/tables/${table.id}/indexes`).set(su())).body.list.find((i: { origin: string }) => i.origin === 'primary');
    expect((await h.http.delete(`${P}/tables/${table.id}/indexes/${primary.id}`).set(su())).status).toBe(400);
  });

  it('a unique index over duplicate values answers 409 and leaves no index behind (no invalid leftover)', async () => {
    const k = db();
    const pg = k.client.config.client === 'pg';
    await (await rowsOf())().insert([{ [cn('Done')]: true, nc_order: 1 }, { [cn('Done')]: true, nc_order: 2 }]);
    const before = await catalogue(table.table_name);
    const res = await h.http.post(`${P}/tables/${table.id}/indexes`).set(su()).send({ columns: ['Done'], unique: true });
    expect([res.status, res.body.error]).toEqual([409, 'ERR_INDEX_NOT_UNIQUE']);
    expect([...(await catalogue(table.table_name)).keys()].sort()).toEqual([...before.keys()].sort());
    if (pg) expect((await k.raw("select count(*)::int as n from pg_index ix join pg_class i on i.oid = ix.indexrelid where not ix.indisvalid and i.relname like 'ixm_%'")).rows[0].n).toBe(0);
  });

  it('a view sort or filter indexes its column once (idempotent), skipping columns an index already leads with', async () => {
    const view = table.views[0].id;
    await h.http.post(`${P}/views/${view}/sorts`).set(su()).send({ fk_column_id: col('Mail').id, direction: 'desc' }).expect(200);
    await h.http.post(`${P}/views/${view}/sorts`).set(su()).send({ fk_column_id: col('Mail').id }).expect(200);
    await h.http.post(`${P}/views/${view}/filters`).set(su()).send({ fk_column_id: col('Mail').id, comparison_op: 'eq', value: 'x' }).expect(200);
    await h.http.post(`${P}/views/${view}/filters`).set(su()).send({
      is_group: true, logical_op: 'and', children: [{ fk_column_id: col('Done').id, comparison_op: 'eq', value: true }],
    }).expect(200);
    // Score already leads the manual index (score, due); Id is the key; the formula is virtual.
    await h.http.post(`${P}/views/${view}/sorts`).set(su()).send({ fk_column_id: col('Score').id }).expect(200);
    await h.http.post(`${P}/views/${view}/sorts`).set(su()).send({ fk_column_id: col('Id').id }).expect(200);
    await h.http.post(`${P}/views/${view}/sorts`).set(su()).send({ fk_column_id: col('Twice').id }).expect(200);
    const indexes = await catalogue(table.table_name);
    const onMail = [...indexes.entries()].filter(([, cols]) => cols[0] === cn('Mail'));
    expect(onMail).toEqual([[`ixa_${col('Mail').id}`, [cn('Mail')]]]);
    expect(indexes.get(`ixa_${col('Done').id}`)).toEqual([cn('Done')]);
    expect(indexes.has(`ixa_${col('Score').id}`)).toBe(false);
    expect(indexes.has(`ixa_${col('Id').id}`)).toBe(false);
    const listed = (await h.http.get(`${P}/tables/${table.id}/indexes`).set(su())).body.list;
    expect(listed.find((i: { id: string }) => i.id === `ixa_${col('Mail').id}`)).toMatchObject({ origin: 'view' });
  });

  it('an indexed column can still be renamed, retyped and dropped (its indexes go with it)', async () => {
    const c = (await h.http.post(`${P}/tables/${table.id}/columns`).set(su()).send({ title: 'Rank', uidt: 'Number' }).expect(200)).body;
    await h.http.post(`${P}/views/${table.views[0].id}/sorts`).set(su()).send({ fk_column_id: c.id }).expect(200);
    const manual = (await h.http.post(`${P}/tables/${table.id}/indexes`).set(su()).send({ columns: [c.id, 'Due'] }).expect(200)).body;
    expect((await catalogue(table.table_name)).has(`ixa_${c.id}`)).toBe(true);
    await h.http.patch(`${P}/columns/${c.id}`).set(su()).send({ title: 'Rank2', column_name: 'rank_two' }).expect(200);
    await h.http.patch(`${P}/columns/${c.id}`).set(su()).send({ uidt: 'Decimal' }).expect(200);
    await h.http.delete(`${P}/columns/${c.id}`).set(su()).expect(200);
    const after = await catalogue(table.table_name);
    expect(after.has(`ixa_${c.id}`)).toBe(false);
    // PostgreSQL drops a multi-column index with the column; MySQL and SQLite keep it on the columns left.
    expect([...after.values()].flat()).not.toContain('rank_two');
    if (after.has(manual.id)) expect(after.get(manual.id)).toEqual([cn('Due')]);
  });

  it('a link foreign key is indexed', async () => {
    const other = (await h.http.post(`${P}/projects/${baseId}/tables`).set(su()).send({
      title: 'Owners', table_name: `owners_${randomBytes(3).toString('hex')}`, columns: [{ title: 'Who', uidt: 'SingleLineText' }],
    }).expect(200)).body;
    await h.http.post(`${P}/tables/${other.id}/columns`).set(su()).send({ title: 'Tasks', uidt: 'Links', parentId: other.id, childId: table.id, type: 'hm' }).expect(200);
    const listed = (await h.http.get(`${P}/tables/${table.id}/indexes`).set(su()).expect(200)).body.list as { id: string; origin: string; columns: { column_name: string }[] }[];
    const link = listed.find((i) => i.origin === 'link');
    expect(link).toBeDefined();
    expect((await catalogue(table.table_name)).get(link!.id)).toEqual(link!.columns.map((c) => c.column_name));
  });

  it("another tenant's table answers 404, a viewer 403 on create and drop", async () => {
    const stranger = h.as({ id: 'us0000000000stranger' });
    expect((await h.http.get(`${P}/tables/${table.id}/indexes`).set(stranger)).status).toBe(404);
    expect((await h.http.post(`${P}/tables/${table.id}/indexes`).set(stranger).send({ columns: ['Due'] })).status).toBe(404);
    expect((await h.http.delete(`${P}/tables/${table.id}/indexes/ixm_x`).set(stranger)).status).toBe(404);
    expect((await h.http.get(`${P}/tables/tbl_missing/indexes`).set(su())).status).toBe(404);
    h.auth.roles.set(`${baseId}:us00000000000viewer`, 'viewer');
    const viewer = h.as({ id: 'us00000000000viewer' });
    expect((await h.http.get(`${P}/tables/${table.id}/indexes`).set(viewer)).status).toBe(200);
    expect((await h.http.post(`${P}/tables/${table.id}/indexes`).set(viewer).send({ columns: ['Due'] })).status).toBe(403);
  });
}

describe('default PostgreSQL source', () => {
  it('the planner uses the index a view filter + sort made for a filtered sorted first page (EXPLAIN: Index Scan)', async () => {
    const baseId = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'IdxPlan' }).expect(200)).body.id;
    const t = (await h.http.post(`${P}/projects/${baseId}/tables`).set(h.superUser).send({
      title: 'Big', table_name: `big_${randomBytes(3).toString('hex')}`, columns: [{ title: 'Name', uidt: 'SingleLineText' }, { title: 'Score', uidt: 'Number' }],
    }).expect(200)).body;
    const score = t.columns.find((c: { title: string }) => c.title === 'Score');
    const { s: schema } = (await h.shared.db.raw('select table_schema as s from information_schema.tables where table_name = ?', [t.table_name])).rows[0];
    const q = `"${schema}"."${t.table_name}"`;
    const name = t.columns.find((c: { title: string }) => c.title === 'Name').column_name;
    await h.shared.db.raw(`insert into ${q} ("${name}", "${score.column_name}", nc_order) select 'row ' || g, g, g from generate_series(1, 50000) g`);
    await h.shared.db.raw(`analyze ${q}`);
    const sql = `select * from ${q} where "${score.column_name}" > 49000 order by "${score.column_name}" desc limit 25`;
    const plan = async () => (await h.shared.db.raw(`explain ${sql}`)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    expect(await plan()).not.toMatch(/Index Scan/);
    await h.http.post(`${P}/views/${t.views[0].id}/filters`).set(h.superUser).send({ fk_column_id: score.id, comparison_op: 'gt', value: '49000' }).expect(200);
    await h.http.post(`${P}/views/${t.views[0].id}/sorts`).set(h.superUser).send({ fk_column_id: score.id, direction: 'desc' }).expect(200);
    await h.shared.db.raw(`analyze ${q}`);
    const after = await plan();
    expect(after).toMatch(new RegExp(`Index Scan( Backward)? using ixa_${score.id}`));
    console.log(`EXPLAIN ${sql}\n${after}`);
  });

  indexMatrix(async () => (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'IdxPg' }).expect(200)).body.id, pgCatalogue(() => h.shared.db), () => h.shared.db);
});

function pgConnection(url: string) {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) };
}

describe('external PostgreSQL', () => {
  let db: TestDatabase;
  let k: Knex;
  beforeAll(async () => {
    db = await createTestDatabase('tabula_idx');
    k = knexFactory({ client: 'pg', connection: db.url });
  });
  afterAll(async () => { await k.destroy(); await db.drop().catch(() => undefined); });
  indexMatrix(async () => (await h.http.post(`${P}/projects`).set(h.superUser).send({
    title: 'IdxExtPg', external: true, sources: [{ type: 'pg', config: { client: 'pg', connection: pgConnection(db.url) } }],
  }).expect(200)).body.id, pgCatalogue(() => k), () => k);
});

describe('external SQLite', () => {
  let k: Knex;
  afterAll(async () => { await k?.destroy(); });
  indexMatrix(async () => {
    const id = (await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'IdxSqlite', external: true, sources: [{ type: 'sqlite3', config: { client: 'sqlite3', connection: { filename: 'idx/one.db' } } }],
    }).expect(200)).body.id;
    k = knexFactory({ client: 'sqlite3', connection: { filename: path.join(h.dataDir, 'sqlite', 'idx', 'one.db') }, useNullAsDefault: true });
    return id;
  }, sqliteCatalogue(() => k), () => k);
});

describeWithBackend('mysql', 'external MariaDB', () => {
  let admin: Knex;
  let k: Knex;
  const database = `tabula_idx_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    admin = knexFactory({ client: 'mysql2', connection: process.env.MYSQL_URL! });
    await admin.raw('CREATE DATABASE ??', [database]);
    const u = new URL(process.env.MYSQL_URL!);
    u.pathname = `/${database}`;
    k = knexFactory({ client: 'mysql2', connection: u.toString() });
  });
  afterAll(async () => {
    await k.destroy();
    await admin.raw('DROP DATABASE IF EXISTS ??', [database]);
    await admin.destroy();
  });
  indexMatrix(async () => {
    const u = new URL(process.env.MYSQL_URL!);
    return (await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'IdxMaria', external: true, sources: [{ type: 'mysql2', config: { client: 'mysql2', connection: {
        host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database,
      } } }],
    }).expect(200)).body.id;
  }, mysqlCatalogue(() => k), () => k);
});
