import knexFactory, { type Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { TestApi, createTestDatabase, describeWithBackend, startTestStack, type TestDatabase, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * A base built on a `pg` integration pointing at the local PostgreSQL: records
 * are listed and written through it; breaking the integration's credentials
 * makes the base's record calls fail naming the source, fixing them brings it back.
 */
let stack: TestStack;
let ext: TestDatabase;
let db: Knex;
let token: string;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function pgOf(url: string) {
  const u = new URL(url);
  return { client: 'pg', connection: { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) } };
}

beforeAll(async () => {
  // The integration points at this machine's PostgreSQL: a private address, allowed only by the flag.
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
  db = knexFactory({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  ext = await createTestDatabase('tabula_intbase');
  const k = knexFactory({ client: 'pg', connection: ext.url });
  await k.schema.createTable('people', (t) => { t.increments('id'); t.string('name').notNullable(); });
  await k('people').insert([{ name: 'Ada' }, { name: 'Grace' }]);
  await k.destroy();
  token = (await new TestApi(stack.url).signUp('e2e', 'int-e2e@example.com')).token;
});
afterAll(async () => {
  await db?.destroy();
  await stack?.stop();
  await ext?.drop();
});

describe('a base on a pg integration', () => {
  it('lists and writes records; a broken config fails naming the source; fixing it brings it back', async () => {
    const integration = await call('POST', '/api/v2/meta/integrations', { title: 'Local PG', type: 'database', sub_type: 'pg', config: pgOf(ext.url) });
    expect(integration.status).toBe(200);
    const intId = integration.body.id as string;
    const base = await call('POST', '/api/v1/db/meta/projects', { title: 'OnIntegration', external: true, sources: [{ fk_integration_id: intId }] });
    expect(base.status).toBe(200);
    const baseId = base.body.id as string;
    const source = await db.withSchema('meta').table('sources').where({ base_id: baseId }).first();
    expect(source.fk_integration_id).toBe(intId);
    expect(source.config).not.toContain(ext.url.split('/').pop());
    const T = `/api/v1/db/data/noco/${baseId}/people`;

    const listed = await call('GET', T);
    expect(listed.status).toBe(200);
    expect(listed.body.list.map((r: { name: string }) => r.name)).toEqual(['Ada', 'Grace']);
    expect((await call('POST', T, { name: 'Linus' })).status).toBe(200);
    expect((await call('GET', `${T}/count`)).body).toEqual({ count: 3 });
    const withSources = await call('GET', `/api/v2/meta/integrations/${intId}?includeSources=true`);
    expect(withSources.body.sources).toEqual([{ id: source.id, base_id: baseId, alias: null, type: 'pg' }]);

    // the credentials are broken by the role name as well, as a local PostgreSQL may trust every password (pg_hba "trust");
    // the server answers class 28 either way: 28000 (no such role, under trust) or 28P01 (password auth, as the embedded one uses)
    const broken = await call('PATCH', `/api/v2/meta/integrations/${intId}`, { config: { connection: { user: 'no_such_role_13', password: 'Wrong-Password-13' } } });
    expect(broken.status).toBe(200);
    let failure: { status: number; body: any } = { status: 0, body: undefined };
    await until('record calls fail', async () => { failure = await call('GET', T); return failure.status >= 400; });
    expect(failure.status).toBe(502);
    expect(failure.body).toMatchObject({ error: 'ERR_SOURCE_UNAVAILABLE' });
    expect(failure.body.msg).toMatch(new RegExp(`^Cannot connect to data source '${source.id}' of base '${baseId}' \\(pg, 28(000|P01)\\)$`));
    expect(JSON.stringify(failure.body)).not.toContain('Wrong-Password-13');
    expect((await call('POST', T, { name: 'Lost' })).status).toBe(502);

    const fixed = await call('PATCH', `/api/v2/meta/integrations/${intId}`, { config: pgOf(ext.url) });
    expect(fixed.status).toBe(200);
    await until('record calls work again', async () => (await call('GET', T)).status === 200);
    expect((await call('GET', T)).body.list.map((r: { name: string }) => r.name)).toEqual(['Ada', 'Grace', 'Linus']);
    expect((await call('POST', T, { name: 'Barbara' })).status).toBe(200);

    const refused = await call('DELETE', `/api/v2/meta/integrations/${intId}`);
    expect(refused.status).toBe(400);
    expect((await call('DELETE', `/api/v2/meta/integrations/${intId}?force=true`)).status).toBe(200);
    await until('source detached', async () => (await db.withSchema('meta').table('sources').where({ id: source.id }).first()).fk_integration_id === null);
    expect((await call('GET', `${T}/count`)).body).toEqual({ count: 4 });
  });

  it('refuses an integration the caller cannot use', async () => {
    const ai = await call('POST', '/api/v2/meta/integrations', { title: 'AI', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-1' } });
    const res = await call('POST', '/api/v1/db/meta/projects', { title: 'Nope', external: true, sources: [{ fk_integration_id: ai.body.id }] });
    expect([res.status, res.body.msg]).toEqual([400, expect.stringMatching(/cannot back a data source/)]);
    const missing = await call('POST', '/api/v1/db/meta/projects', { title: 'Nope', external: true, sources: [{ fk_integration_id: 'intnosuch' }] });
    expect(missing.status).toBe(400);
  });
});

describeWithBackend('mysql', 'a base on a mysql2 integration with a real password', () => {
  const suffix = randomBytes(4).toString('hex');
  const database = `tabula_int_${suffix}`;
  const user = `tabula_int_${suffix}`;
  const password = `Right-Pass-${suffix}`;
  let admin: Knex;
  let host: { host: string; port: number };
  beforeAll(async () => {
    admin = knexFactory({ client: 'mysql2', connection: process.env.MYSQL_URL! });
    const u = new URL(process.env.MYSQL_URL!);
    host = { host: u.hostname, port: Number(u.port || 3306) };
    await admin.raw('CREATE DATABASE ??', [database]);
    await admin.raw('CREATE TABLE ??.items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL)', [database]);
    await admin.raw(`CREATE USER ?@'%' IDENTIFIED BY ?`, [user, password]);
    await admin.raw(`GRANT ALL ON ??.* TO ?@'%'`, [database, user]);
  });
  afterAll(async () => {
    await admin.raw('DROP DATABASE IF EXISTS ??', [database]);
    await admin.raw(`DROP USER IF EXISTS ?@'%'`, [user]);
    await admin.destroy();
  });

  it('a wrong password fails the record calls naming the source; the right one brings them back', async () => {
    const config = { client: 'mysql2', connection: { ...host, user, password, database } };
    const intId = (await call('POST', '/api/v2/meta/integrations', { title: 'Maria', type: 'database', sub_type: 'mysql2', config })).body.id as string;
    const base = await call('POST', '/api/v1/db/meta/projects', { title: 'OnMaria', external: true, sources: [{ fk_integration_id: intId }] });
    expect(base.status).toBe(200);
    const T = `/api/v1/db/data/noco/${base.body.id}/items`;
    expect((await call('POST', T, { name: 'one' })).status).toBe(200);
    await call('PATCH', `/api/v2/meta/integrations/${intId}`, { config: { connection: { password: 'Wrong-Pass-xyz' } } });
    let failure: { status: number; body: any } = { status: 0, body: undefined };
    await until('record calls fail', async () => { failure = await call('GET', T); return failure.status >= 400; });
    expect([failure.status, failure.body.msg]).toEqual([502, expect.stringMatching(/^Cannot connect to data source '\w+' of base '\w+' \(mysql2, ER_ACCESS_DENIED_ERROR\)$/)]);
    expect(JSON.stringify(failure.body)).not.toMatch(/Wrong-Pass-xyz|Right-Pass/);
    await call('PATCH', `/api/v2/meta/integrations/${intId}`, { config: { connection: { password } } });
    await until('record calls work again', async () => (await call('GET', T)).status === 200);
    expect((await call('GET', T)).body.list.map((r: { name: string }) => r.name)).toEqual(['one']);
  });
});
