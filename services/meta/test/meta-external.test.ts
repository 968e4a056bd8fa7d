import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, describeWithBackend, type TestDatabase } from '@tabula/testing';
import { startMetaHarness, type MetaHarness } from './meta-app.harness';
import { tableColumnMatrix } from './table-column.matrix';

const P = '/api/v1/db/meta';
let h: MetaHarness;

beforeAll(async () => { h = await startMetaHarness({ env: { SVC_ALLOW_LOCAL_SOURCES: 'true' } }); });
afterAll(async () => { await h.stop(); });

function pgConnection(url: string) {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) };
}

describe('external PostgreSQL', () => {
  let db: TestDatabase;
  let baseId: string;
  beforeAll(async () => {
    db = await createTestDatabase('tabula_ext');
    const k = knexFactory({ client: 'pg', connection: db.url });
    await k.schema.createTable('people', (t) => { t.increments('id'); t.string('name').notNullable(); t.boolean('active'); t.jsonb('data'); });
    await k.destroy();
  });
  afterAll(async () => { await h.shared.db.raw('select 1'); await db.drop().catch(() => undefined); });

  it('introspects existing tables into metadata', async () => {
    const res = await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'ExtPg', external: true, sources: [{ type: 'pg', config: { client: 'pg', connection: pgConnection(db.url) } }],
    }).expect(200);
    baseId = res.body.id;
    expect(JSON.stringify(res.body)).not.toContain(pgConnection(db.url).database);
    const tables = (await h.http.get(`${P}/projects/${baseId}/tables`).set(h.superUser).expect(200)).body.list;
    expect(tables.map((t: { table_name: string }) => t.table_name)).toEqual(['people']);
    const people = (await h.http.get(`${P}/tables/${tables[0].id}`).set(h.superUser)).body;
    expect(people.columns.map((c: { uidt: string }) => c.uidt)).toEqual(['ID', 'SingleLineText', 'Checkbox', 'JSON']);
  });

  describe('matrix', () => {
    tableColumnMatrix(() => h, async () => baseId);
  });
});

describe('external source errors', () => {
  it('answers 400 without echoing credentials when unreachable', async () => {
    const res = await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'Bad', external: true,
      sources: [{ type: 'pg', config: { connection: { host: '127.0.0.1', port: 1, user: 'secretuser', password: 'secretpw', database: 'x' } } }],
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/secretuser|secretpw/);
  });

  it('refuses SQLite paths outside the data directory', async () => {
    for (const filename of ['../escape.db', '/etc/passwd', 'a/../../b.db']) {
      const res = await h.http.post(`${P}/projects`).set(h.superUser).send({
        title: 'Sq', external: true, sources: [{ type: 'sqlite3', config: { connection: { filename } } }],
      });
      expect([filename, res.status]).toEqual([filename, 400]);
    }
  });
});

describe('external SQLite', () => {
  let baseId: string;
  beforeAll(async () => {
    baseId = (await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'ExtSqlite', external: true, sources: [{ type: 'sqlite3', config: { client: 'sqlite3', connection: { filename: 'tenant/one.db' } } }],
    }).expect(200)).body.id;
  });
  tableColumnMatrix(() => h, async () => baseId);
});

describeWithBackend('mysql', 'external MariaDB', () => {
  let admin: Knex;
  let baseId: string;
  const database = `tabula_meta_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    admin = knexFactory({ client: 'mysql2', connection: process.env.MYSQL_URL! });
    await admin.raw('CREATE DATABASE ??', [database]);
    const u = new URL(process.env.MYSQL_URL!);
    baseId = (await h.http.post(`${P}/projects`).set(h.superUser).send({
      title: 'ExtMaria', external: true, sources: [{ type: 'mysql2', config: { client: 'mysql2', connection: {
        host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database,
      } } }],
    }).expect(200)).body.id;
  });
  afterAll(async () => {
    await admin.raw('DROP DATABASE IF EXISTS ??', [database]);
    await admin.destroy();
  });
  tableColumnMatrix(() => h, async () => baseId);
});
