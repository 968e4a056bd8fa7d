import { randomBytes } from 'node:crypto';
import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/**
 * Tenant isolation matrix, generated from the contracts: every public route
 * with an id in its path is called with tenant A's real ids by another tenant
 * (B, by JWT), by a base-scoped API token of B's own base, and with no
 * credentials. Another tenant's resource must answer exactly like a missing
 * one (same status, same error code as the same call with ids that do not
 * exist), must never carry A's data, and no credentials is 401. Routes join
 * the matrix as their contracts are registered.
 */
const SECRET = `tenantA-${randomBytes(6).toString('hex')}`;

let s: SecurityStack;
let a: TestUser;
let b: TestUser;
let bToken: string;
const ids: Record<string, string> = {};

/** Tenant A's id for a path parameter, by its name. */
function idFor(name: string, real: boolean): string {
  const n = name.toLowerCase();
  const pick = (key: string, fake: string) => (real ? ids[key] : fake);
  if (n === 'orgs') return 'noco';
  if (n.includes('base') || n.includes('project')) return pick('base', 'pmissing0000000');
  if (n.includes('table') || n.includes('model')) return pick('table', 'mmissing0000000');
  if (n.includes('row') || n.includes('record')) return real ? '1' : '999999';
  if (n.includes('column')) return pick('column', 'cmissing0000000');
  if (n.includes('view')) return pick('view', 'vmissing0000000');
  if (n.includes('hook')) return pick('hook', 'hmissing0000000');
  if (n.includes('comment')) return pick('comment', 'comissing000000');
  if (n.includes('integration')) return pick('integration', 'imissing0000000');
  return real ? 'x' : 'x';
}

function pathOf(endpoint: AnyEndpoint, real: boolean): string {
  let path = endpoint.path;
  for (const name of pathParamNames(endpoint.path)) path = path.replace(`{${name}}`, encodeURIComponent(idFor(name, real)));
  return path;
}

const withIds = (): AnyEndpoint[] => allEndpoints().filter((e) => e.access === 'user' && pathParamNames(e.path).some((n) => n !== 'orgs'));

beforeAll(async () => {
  s = await startSecurityStack();
  a = await s.signUp('tenant-a');
  b = await s.signUp('tenant-b');
  ids.base = await s.createBase(a, `Base ${SECRET}`);
  ids.table = await s.createTable(a, ids.base, 'Secrets');
  const row = await s.call('POST', `/api/v1/db/data/noco/${ids.base}/${ids.table}`, { token: a.token, body: { Name: SECRET } });
  expect(row.status).toBe(200);
  const meta = await s.call('GET', `/api/v1/db/meta/tables/${ids.table}`, { token: a.token });
  ids.column = meta.body.columns.find((c: { title: string }) => c.title === 'Name').id;
  ids.view = meta.body.views?.[0]?.id ?? 'vmissing0000000';
  const hook = await s.call('POST', `/api/v1/db/meta/tables/${ids.table}/hooks`, {
    token: a.token, body: { title: `hook ${SECRET}`, event: 'after', operation: 'insert', notification: { type: 'URL', payload: { method: 'POST', path: 'https://example.org/hook' } } },
  });
  ids.hook = hook.body.id;
  const comment = await s.call('POST', '/api/v1/db/meta/comments', { token: a.token, body: { fk_model_id: ids.table, row_id: '1', comment: SECRET } });
  ids.comment = comment.body.id;
  const integration = await s.call('POST', '/api/v2/meta/integrations', { token: s.admin.token, body: { title: `int ${SECRET}`, type: 'database', sub_type: 'pg', is_private: true, config: { client: 'pg', connection: { host: 'db.example.org', port: 5432, user: 'u', password: SECRET, database: 'd' } } } });
  ids.integration = integration.body.id;
  const bBase = await s.createBase(b, 'B own base');
  const token = await s.call('POST', `/api/v1/db/meta/projects/${bBase}/api-tokens`, { token: b.token, body: { description: 'b token' } });
  bToken = token.body.token;
  for (const [k, v] of Object.entries(ids)) expect({ k, v: typeof v }).toEqual({ k, v: 'string' });
}, 180_000);
afterAll(async () => { await s?.stop(); });

describe('tenant isolation matrix (generated from the contracts)', () => {
  it('another tenant and another base\'s token see A\'s resources exactly as missing ones; no credentials is 401', async () => {
    const endpoints = withIds();
    const mismatches: string[] = [];
    let calls = 0;
    for (const endpoint of endpoints) {
      const body = endpoint.method === 'GET' ? undefined : (endpoint.example?.request ?? {});
      for (const [who, auth] of [['tenant B', { token: b.token }], ["B's base token", { apiToken: bToken }]] as const) {
        const onA = await s.call(endpoint.method, pathOf(endpoint, true), { ...auth, body });
        const onMissing = await s.call(endpoint.method, pathOf(endpoint, false), { ...auth, body });
        calls += 2;
        const id = `${endpoint.method} ${endpoint.path} as ${who}`;
        if (onA.status !== onMissing.status || onA.body?.error !== onMissing.body?.error) {
          mismatches.push(`${id}: A's ids → ${onA.status} ${onA.body?.error}, missing ids → ${onMissing.status} ${onMissing.body?.error}`);
        }
        if (JSON.stringify(onA.body ?? '').includes(SECRET)) mismatches.push(`${id}: answer carries tenant A's data`);
      }
      const anonymous = await s.call(endpoint.method, pathOf(endpoint, true), { body });
      calls += 1;
      if (anonymous.status !== 401) mismatches.push(`${endpoint.method} ${endpoint.path} without credentials → ${anonymous.status}`);
    }
    console.log(`isolation matrix: ${endpoints.length} routes × 3 callers (${calls} calls), ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
  }, 600_000);
});
