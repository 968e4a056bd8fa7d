import { randomBytes } from 'node:crypto';
import { TestApi, createTestDatabase, type TestDatabase } from '@tabula/testing';
import { startSecurityStack, type Reply, type SecurityStack, type TestUser } from './security.helpers';

/**
 * Issue 28, findings 2 and 7, through the whole stack (gateway, auth,
 * integrations, meta): integrations belong to the workspace, managed by org
 * creators and super by session or org-wide token. A base-scoped API token of
 * an org creator touches none of them (403 without an id, the answer of a
 * missing id with one), and a plain signed-up user reads no integration by id
 * (the same 404 as a missing id, without the bases built on it).
 */
const SECRET = `int28-${randomBytes(6).toString('hex')}`;
const MISSING = 'intmissing00000';
const M = '/api/v2/meta/integrations';
const I = '/api/v2/integrations';

let s: SecurityStack;
let ext: TestDatabase;
let owner: TestUser;
let baseToken: string;
let integrationId: string;
let baseId: string;
let password: string;

/** The answer's body with the id it names replaced (to compare answers to two ids). */
const shape = (res: Reply, id: string) => JSON.stringify(res.body ?? '').split(id).join('<id>');

/** Every call on one integration: [what, method, path, body]. Delete last and without force (it must change nothing). */
function onIntegration(id: string): Array<[string, string, string, unknown?]> {
  return [
    ['get with config and sources', 'GET', `${M}/${id}?includeConfig=true&includeSources=true`],
    ['update to a new host keeping the password', 'PATCH', `${M}/${id}`, { config: { connection: { host: 'evil.example.com' } } }],
    ['store', 'POST', `${I}/${id}/store`, { op: 'list' }],
    ['endpoint call', 'POST', `${I}/${id}/listTables`, {}],
    ['delete', 'DELETE', `${M}/${id}`],
  ];
}

/** Calls each route on the integration and on a missing id: both answers, side by side. */
async function probe(auth: { token?: string; apiToken?: string }) {
  const missing = onIntegration(MISSING);
  const seen: Array<{ what: string; status: number; body: string; leaks: boolean }> = [];
  const expected: typeof seen = [];
  for (const [i, [what, method, path, body]] of onIntegration(integrationId).entries()) {
    const real = await s.call(method, path, { ...auth, body });
    const none = await s.call(missing[i][1], missing[i][2], { ...auth, body: missing[i][3] });
    const text = JSON.stringify(real.body ?? '');
    seen.push({ what, status: real.status, body: shape(real, integrationId), leaks: [SECRET, password, baseId].some((x) => text.includes(x)) });
    expected.push({ what, status: 404, body: shape(none, MISSING), leaks: false });
  }
  return { seen, expected };
}

beforeAll(async () => {
  s = await startSecurityStack({ SVC_ALLOW_LOCAL_SOURCES: 'true' });
  owner = await s.signUp('int-owner');
  ext = await createTestDatabase('tabula_int28');
  const u = new URL(ext.url);
  // A password is stored even where local PostgreSQL trusts every one.
  password = decodeURIComponent(u.password) || `pw-${SECRET}`;
  const connection = { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password, database: u.pathname.slice(1) };
  const created = await s.call('POST', M, { token: owner.token, body: { title: `Warehouse ${SECRET}`, type: 'database', sub_type: 'pg', config: { client: 'pg', connection } } });
  expect(created.status).toBe(200);
  integrationId = created.body.id;
  const base = await s.call('POST', '/api/v1/db/meta/projects', { token: owner.token, body: { title: `Base ${SECRET}`, external: true, sources: [{ fk_integration_id: integrationId }] } });
  expect(base.status).toBe(200);
  baseId = base.body.id;
  const token = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { token: owner.token, body: { description: 'base token' } });
  expect(token.status).toBe(200);
  baseToken = token.body.token;
}, 180_000);
afterAll(async () => {
  await s?.stop();
  await ext?.drop();
});

describe('security: integrations (issue 28)', () => {
  it('finding 2: a base-scoped token of an org creator may not list or create integrations (403)', async () => {
    const listed = await s.call('GET', `${M}?includeDatabaseInfo=true`, { apiToken: baseToken });
    expect([listed.status, listed.body?.error]).toEqual([403, 'ERR_FORBIDDEN']);
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    const created = await s.call('POST', M, { apiToken: baseToken, body: { title: 'By token', type: 'database', sub_type: 'pg', copy_from_id: integrationId } });
    expect([created.status, created.body?.error]).toEqual([403, 'ERR_FORBIDDEN']);
    const titles = (await s.call('GET', M, { token: owner.token })).body.map((i: { title: string }) => i.title);
    expect(titles).toEqual([`Warehouse ${SECRET}`]);
  });

  it('finding 2: a base-scoped token of an org creator finds no integration by id (get, update, store, endpoint call, delete)', async () => {
    const { seen, expected } = await probe({ apiToken: baseToken });
    expect(seen).toEqual(expected);
    // Nothing changed: the integration keeps its host and still backs the base.
    const kept = await s.call('GET', `${M}/${integrationId}?includeConfig=true&includeSources=true`, { token: owner.token });
    expect(kept.status).toBe(200);
    expect(kept.body.config.connection).toMatchObject({ host: new URL(ext.url).hostname, password });
    expect(kept.body.sources.map((src: { base_id: string }) => src.base_id)).toEqual([baseId]);
  });

  it('finding 7: a plain signed-up user reads no integration by id: 404 exactly like a missing id, no base ids or names', async () => {
    const plain = await new TestApi(s.url).signUp('int-plain');
    expect(plain.roles).toBe('org-level-viewer');
    const { seen, expected } = await probe({ token: plain.token });
    expect(seen).toEqual(expected);
    expect((await s.call('GET', M, { token: plain.token })).status).toBe(403);
  });

  it('the org creator still manages them by session and by org-wide token', async () => {
    const orgToken = (await s.call('POST', '/api/v1/tokens', { token: owner.token, body: { description: 'org' } })).body.token;
    for (const auth of [{ token: owner.token }, { apiToken: orgToken }]) {
      expect((await s.call('GET', M, auth)).status).toBe(200);
      const got = await s.call('GET', `${M}/${integrationId}?includeConfig=true`, auth);
      expect([got.status, got.body.config?.connection?.password]).toEqual([200, password]);
      expect((await s.call('POST', `${I}/${integrationId}/store`, { ...auth, body: { op: 'list' } })).status).toBe(200);
    }
  });
});
