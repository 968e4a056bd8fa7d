import { randomBytes } from 'node:crypto';
import { BASE_ACTIONS, roleAllows, type BaseRole } from '@tabula/auth';
import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { upload } from '../storage-e2e.helpers';
import { startSecurityStack, type Reply, type SecurityStack } from './security.helpers';
import {
  BODY_ID_CASES, CALLERS, CLASS_ACTION, HAND_WRITTEN, MEMBER_ROLE, ROUTE_CLASSES, bIds, hookBody, ids, live, users,
  type Caller, type Outcome,
} from './role-matrix.table';

/**
 * Role dimension of the tenant isolation matrix (issue 17, permanent suite),
 * generated from the contracts: every public route with an id in its path,
 * query or body is called with tenant A's real ids as A (the owner), as
 * another tenant, as a viewer, a commenter and an editor of A's base (invited
 * through the API), with a base-scoped API token of another base, and with no
 * credentials. The expected answer of each call comes from ONE table: the
 * route's action class (ROUTE_CLASSES) and the base policy of libs/auth
 * (BASE_ACTIONS); a few hand-written expectations keep a wrong policy from
 * passing. A route that has no class fails the test, named.
 *
 * Outcomes: `allowed` (2xx, and no other tenant's data in the answer),
 * `forbidden` (403), `hidden` (exactly the answer of the same call with ids
 * that do not exist, never A's data), `unauthenticated` (401).
 */
const SECRET_A = `tenantA-${randomBytes(6).toString('hex')}`;
const SECRET_B = `tenantB-${randomBytes(6).toString('hex')}`;


let s: SecurityStack;
let hookServer: http.Server;
let bToken = '';
/** One record per caller, so two callers allowed to delete a record each delete their own. */
const rowOf: Partial<Record<Caller, string>> = {};
const deleteRowOf: Partial<Record<Caller, string>> = {};




/** The expected outcome of a call, from the class table and the libs/auth policy. */
function expected(endpointId: string, caller: Caller): Outcome {
  const spec = ROUTE_CLASSES[endpointId];
  if (caller === 'anonymous') return 'unauthenticated';
  const auth = allEndpoints().find((e) => e.id === endpointId)?.auth;
  if (caller === "B's base token" && auth && !auth.callers.includes('baseToken')) {
    // Session-only endpoints refuse every API token (401 ERR_API_TOKEN_NOT_ALLOWED); account endpoints
    // (integrations) refuse base-scoped ones: as a missing resource when scoped by one, else 403.
    if (!auth.callers.includes('orgToken')) return 'unauthenticated';
    return auth.scope ? 'hidden' : 'forbidden';
  }
  if (caller === 'tenant B' || caller === "B's base token") return 'hidden';
  if (caller === 'owner') return 'allowed';
  const role = MEMBER_ROLE[caller] as BaseRole;
  if (spec.class === 'own-resource') return 'hidden';
  if (spec.class === 'comment-author') return roleAllows(role, 'comment.read') ? 'forbidden' : 'hidden';
  return roleAllows(role, CLASS_ACTION[spec.class]) ? 'allowed' : 'forbidden';
}

/** Tenant A's id (or a missing one) for a path parameter, by name; records per caller. */
function idFor(endpoint: AnyEndpoint, name: string, real: boolean, caller: Caller): string {
  const n = name.toLowerCase();
  const pick = (key: string, fake: string) => (real ? ids[key] : fake);
  if (n === 'orgs') return 'noco';
  if (n === 'relationtype') return 'mm';
  if (n === 'event') return 'after';
  if (n === 'operation') return 'insert';
  if (n === 'version') return 'v2';
  if (n === 'endpoint') return 'listTables';
  if (n === 'subtype') return 'pg';
  if (n === 'type') return 'database';
  if (n === 'refrowid') return real ? '1' : '999999';
  if (n === 'columnname') return pick('linkColumn', 'cmissing0000000');
  if (n === 'id') return pick('orgToken', 'tmissing0000000');
  if (n === 'tokenid') return pick('baseToken', 'tmissing0000000');
  if (n === 'userid') return pick('spareUser', 'umissing0000000');
  if (n === 'sourceid') return pick('source', 'smissing0000000');
  if (n === 'parentid') return pick('filterGroup', 'fmissing0000000');
  if (n === 'indexid') return pick('index', 'imissing0000000');
  if (n.includes('base') || n.includes('project')) return pick('base', 'pmissing0000000');
  if (n.includes('table') || n.includes('model')) return pick('table', 'mmissing0000000');
  if (n.includes('row') || n.includes('record')) return real ? rowFor(endpoint, caller) : '999999';
  if (n.includes('column')) return pick(COLUMN_OF[endpoint.id] ?? 'spareColumn', 'cmissing0000000');
  if (n.includes('view')) return pick('view', 'vmissing0000000');
  if (n.includes('hook')) return pick('hook', 'hmissing0000000');
  if (n.includes('sort')) return pick('sort', 'somissing000000');
  if (n.includes('filter')) return pick('filter', 'fmissing0000000');
  if (n.includes('comment')) return pick(endpoint.path.startsWith('/api/v2') ? 'comment2' : 'comment', 'comissing000000');
  if (n.includes('integration')) return pick('integration', 'imissing0000000');
  throw new Error(`role matrix: no id for path parameter '${name}' of ${endpoint.id}: teach idFor`);
}

/** Which of A's columns a route's `{columnId}` names (the spare one unless said). */
const COLUMN_OF: Record<string, string> = { storageDownloadAttachment: 'attachmentColumn', columnSetPrimary: 'column' };

/**
 * A's record for a route and caller: each caller its own, and record deletes
 * their own set, so two allowed deleters never race for one record. Comments
 * and downloads use an anchor record nobody deletes.
 */
function rowFor(endpoint: AnyEndpoint, caller: Caller): string {
  if (endpoint.service === 'comments' || endpoint.service === 'storage') return ids.anchorRow;
  const set = endpoint.id === 'recordDelete' ? deleteRowOf : rowOf;
  return set[caller] as string;
}

function pathOf(endpoint: AnyEndpoint, real: boolean, caller: Caller): string {
  let path = endpoint.path;
  for (const name of pathParamNames(endpoint.path)) path = path.replace(`{${name}}`, encodeURIComponent(idFor(endpoint, name, real, caller)));
  return path + (ROUTE_CLASSES[endpoint.id]?.query?.(real) ?? '');
}

const BODY_ID = /(^|_)id$|Id$/;
/** Path parameters that name no resource (enums, fixed names). */
const NOT_IDS = new Set(['orgs', 'type', 'subType', 'event', 'operation', 'version', 'relationType', 'endpoint']);
/** A route carries an id in its path, its query or its body. */
function carriesId(e: AnyEndpoint): boolean {
  if (pathParamNames(e.path).some((n) => !NOT_IDS.has(n))) return true;
  // Object keys of a schema, through pipes, transforms, optionals and effects.
  const keys = (schema: any, depth = 0): string[] => {
    if (!schema || depth > 5) return [];
    if (schema.shape) return Object.keys(schema.shape);
    const def = schema._def ?? {};
    return [def.in, def.schema, def.innerType, def.out].flatMap((inner) => keys(inner, depth + 1));
  };
  return [...keys(e.query), ...keys(e.body)].some((k) => BODY_ID.test(k) && k !== 'id');
}
const matrixRoutes = (): AnyEndpoint[] => allEndpoints().filter((e) => e.access === 'user' && carriesId(e));

const authOf = (caller: Caller): { token?: string; apiToken?: string } => {
  if (caller === 'anonymous') return {};
  if (caller === "B's base token") return { apiToken: bToken };
  return { token: users[caller].token };
};

const ok = (res: Reply, what: string): Reply => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

beforeAll(async () => {
  live.columnsHash = async () => (await s.call('GET', `/api/v1/db/meta/tables/${ids.table}/columns/hash`, { token: users.owner.token })).body.hash;
  hookServer = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('{}')); });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  ids.hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  // Local hook receivers and a local PostgreSQL integration: every allowed call can succeed.
  s = await startSecurityStack({ SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_ALLOW_LOCAL_SOURCES: 'true' });
  const [owner, tenantB, viewer, commenter, editor, spare, invitee] = await Promise.all(['owner', 'tenant-b', 'viewer', 'commenter', 'editor', 'spare', 'invitee'].map((n) => s.signUp(n)));
  Object.assign(users, { owner, 'tenant B': tenantB, viewer, commenter, editor, spare, invitee });
  const as = (path: string, method = 'GET', body?: unknown, who = owner) => s.call(method, path, { token: who.token, body }).then((r) => ok(r, `${method} ${path}`));

  ids.base = await s.createBase(owner, `Base ${SECRET_A}`);
  ids.table = await s.createTable(owner, ids.base, 'Secrets', [
    { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
    { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
    { column_name: 'spare', title: 'Spare', uidt: 'SingleLineText' },
    { column_name: 'files', title: 'Files', uidt: 'Attachment' },
  ]);
  const tags = await s.createTable(owner, ids.base, 'Tags');
  for (const [role, who] of [['viewer', viewer], ['commenter', commenter], ['editor', editor], ['viewer', spare]] as const) await s.addMember(owner, ids.base, who.email, role);
  ids.spareUser = spare.id;
  ids.linkColumn = (await as(`/api/v1/db/meta/tables/${ids.table}/columns`, 'POST', { title: 'Tags', uidt: 'LinkToAnotherRecord', parentId: ids.table, childId: tags, type: 'mm' })).body.columns
    ?.find((c: { title: string }) => c.title === 'Tags')?.id ?? 'Tags';
  const meta = (await as(`/api/v1/db/meta/tables/${ids.table}`)).body;
  const col = (title: string) => meta.columns.find((c: { title: string }) => c.title === title).id;
  ids.column = col('Name');
  ids.spareColumn = col('Spare');
  ids.attachmentColumn = col('Files');
  ids.linkColumn = col('Tags');
  ids.source = (await as(`/api/v1/db/meta/projects/${ids.base}`)).body.sources?.[0]?.id ?? 'smissing0000000';
  // Two records per caller, an anchor record (comments, attachment) nobody deletes, a tag to link.
  const uploaded = await upload(s.url, owner.token, [{ name: 'note.txt', type: 'text/plain', data: Buffer.from(`file ${SECRET_A}`) }]);
  expect(uploaded.status).toBe(200);
  ids.attachmentPath = uploaded.body[0].path;
  const anchor = (await as(`/api/v1/db/data/noco/${ids.base}/${ids.table}`, 'POST', { Name: `${SECRET_A} anchor`, Files: uploaded.body })).body;
  ids.anchorRow = String(anchor.Id);
  const rows = (await as(`/api/v1/db/data/bulk/noco/${ids.base}/${ids.table}`, 'POST', [...CALLERS, ...CALLERS].map((c) => ({ Name: `${SECRET_A} ${c}` })))).body;
  const rowIds = await Promise.all(rows.map(async (r: { Id?: number }, i: number) => String(r.Id ?? i + 2)));
  CALLERS.forEach((c, i) => { rowOf[c] = rowIds[i]; deleteRowOf[c] = rowIds[CALLERS.length + i]; });
  ids.bulkRow = rowOf.owner as string;
  await as(`/api/v1/db/data/noco/${ids.base}/${tags}`, 'POST', { Name: `${SECRET_A} tag` });
  ids.view = (await as(`/api/v1/db/meta/tables/${ids.table}/grids`, 'POST', { title: 'Spare view' })).body.id;
  ids.sort = (await as(`/api/v1/db/meta/views/${ids.view}/sorts`, 'POST', { fk_column_id: ids.column, direction: 'asc' })).body.id;
  ids.filterGroup = (await as(`/api/v1/db/meta/views/${ids.view}/filters`, 'POST', { is_group: true, logical_op: 'and' })).body.id;
  ids.filter = (await as(`/api/v1/db/meta/views/${ids.view}/filters`, 'POST', { fk_column_id: ids.column, comparison_op: 'neq', value: SECRET_A, fk_parent_id: ids.filterGroup })).body.id;
  ids.index = (await as(`/api/v1/db/meta/tables/${ids.table}/indexes`, 'POST', { columns: [ids.spareColumn] })).body.id;
  ids.hook = (await as(`/api/v1/db/meta/tables/${ids.table}/hooks`, 'POST', { ...hookBody(`hook ${SECRET_A}`), active: false })).body.id;
  ids.comment = (await as('/api/v1/db/meta/comments', 'POST', { fk_model_id: ids.table, row_id: ids.anchorRow, comment: SECRET_A })).body.id;
  ids.comment2 = (await as(`/api/v2/tables/${ids.table}/records/${ids.anchorRow}/comments`, 'POST', { comment: SECRET_A })).body.id;
  ids.baseToken = (await as(`/api/v1/db/meta/projects/${ids.base}/api-tokens`, 'POST', { description: 'matrix' })).body.id;
  ids.orgToken = (await as('/api/v1/tokens', 'POST', { description: 'matrix' })).body.id;
  ids.integration = (await as('/api/v2/meta/integrations', 'POST', {
    title: `int ${SECRET_A}`, type: 'database', sub_type: 'pg', is_private: true,
    config: { client: 'pg', connection: pgConnection() },
  })).body.id;

  // Tenant B: its own base with its own secrets, and a token scoped to it.
  const bBase = await s.createBase(tenantB, `Base ${SECRET_B}`);
  const bTable = await s.createTable(tenantB, bBase, 'Secrets');
  await as(`/api/v1/db/data/noco/${bBase}/${bTable}`, 'POST', { Name: SECRET_B }, tenantB);
  const bMeta = (await as(`/api/v1/db/meta/tables/${bTable}`, 'GET', undefined, tenantB)).body;
  Object.assign(bIds, {
    base: bBase, table: bTable, view: bMeta.views[0].id, column: bMeta.columns.find((c: { title: string }) => c.title === 'Name').id,
    source: (await as(`/api/v1/db/meta/projects/${bBase}`, 'GET', undefined, tenantB)).body.sources?.[0]?.id,
    comment: (await as('/api/v1/db/meta/comments', 'POST', { fk_model_id: bTable, row_id: '1', comment: SECRET_B }, tenantB)).body.id,
    hook: (await as(`/api/v1/db/meta/tables/${bTable}/hooks`, 'POST', { ...hookBody(`hook ${SECRET_B}`), active: false }, tenantB)).body.id,
  });
  bIds.sort = (await as(`/api/v1/db/meta/views/${bIds.view}/sorts`, 'POST', { fk_column_id: bIds.column, direction: 'asc' }, tenantB)).body.id;
  bIds.filter = (await as(`/api/v1/db/meta/views/${bIds.view}/filters`, 'POST', { fk_column_id: bIds.column, comparison_op: 'eq', value: 'b' }, tenantB)).body.id;
  bToken = (await as(`/api/v1/db/meta/projects/${bBase}/api-tokens`, 'POST', { description: 'b' }, tenantB)).body.token;
  for (const [k, v] of Object.entries({ ...ids, ...Object.fromEntries(Object.entries(bIds).map(([k, v]) => [`b.${k}`, v])) })) expect({ k, v: typeof v }).toEqual({ k, v: 'string' });
}, 180_000);

const MISSING_ID = 'xmissing0000000';
/** Routes whose body or query has an id-like field (found by the key scan). */
function bodyIdRoutes(): AnyEndpoint[] {
  const keys = (schema: any, depth = 0): string[] => {
    if (!schema || depth > 5) return [];
    if (schema.shape) return Object.keys(schema.shape);
    const def = schema._def ?? {};
    return [def.in, def.schema, def.innerType, def.out].flatMap((inner) => keys(inner, depth + 1));
  };
  return allEndpoints().filter((e) => e.access === 'user' && [...keys(e.query), ...keys(e.body)].some((k) => BODY_ID.test(k) && k !== 'id'));
}
afterAll(async () => {
  await s?.stop();
  await new Promise((r) => hookServer?.close(r));
});

/** The test PostgreSQL as an integration's connection. */
function pgConnection() {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  return {
    host: url.hostname, port: Number(url.port || 5432), user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password), database: url.pathname.slice(1) || 'postgres',
  };
}

describe('role matrix (generated from the contracts)', () => {
  it('another tenant\'s id in a body or query of one\'s own resource answers as a missing id', async () => {
    const missing = bodyIdRoutes().filter((e) => !BODY_ID_CASES[e.id]).map((e) => `${e.id} (${e.method} ${e.path})`);
    expect(missing).toEqual([]);
    const endpoints = new Map(allEndpoints().map((e) => [e.id, e]));
    const mismatches: string[] = [];
    let calls = 0;
    for (const [endpointId, cases] of Object.entries(BODY_ID_CASES)) {
      const endpoint = endpoints.get(endpointId) as AnyEndpoint;
      for (const c of cases) {
        bIds.hash = (await s.call('GET', `/api/v1/db/meta/tables/${bIds.table}/columns/hash`, { token: users['tenant B'].token })).body.hash;
        const send = (id: string) => s.call(c.method ?? endpoint.method, c.path(id), { token: users['tenant B'].token, body: c.body?.(id) });
        const onA = await send(c.foreign());
        const onMissing = await send(MISSING_ID);
        calls += 2;
        const said = (r: Reply) => `${r.status} ${r.body?.error ?? ''} ${String(r.body?.message ?? '').slice(0, 100)}`;
        if (onA.status !== onMissing.status || onA.body?.error !== onMissing.body?.error) {
          mismatches.push(`${endpointId} ${c.field}: A's id → ${said(onA)}; missing id → ${said(onMissing)}`);
        }
        if (JSON.stringify(onA.body ?? '').includes(SECRET_A)) mismatches.push(`${endpointId} ${c.field}: answer carries tenant A's data`);
      }
    }
    console.log([`body ids: ${Object.values(BODY_ID_CASES).flat().length} fields of ${Object.keys(BODY_ID_CASES).length} routes (${calls} calls), ${mismatches.length} mismatches`,
      ...mismatches.map((m) => `  MISMATCH ${m}`)].join('\n'));
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('every route carrying an id has an action class', () => {
    const missing = matrixRoutes().filter((e) => !ROUTE_CLASSES[e.id]).map((e) => `${e.id} (${e.method} ${e.path})`);
    expect(missing).toEqual([]);
    const stale = Object.keys(ROUTE_CLASSES).filter((id) => !matrixRoutes().some((e) => e.id === id));
    expect(stale).toEqual([]);
  });

  it('the policy table says what the hand-written expectations say', () => {
    expect(BASE_ACTIONS['data.write']).toBe('editor');
    const wrong = HAND_WRITTEN.filter(([id, caller, outcome]) => expected(id, caller) !== outcome)
      .map(([id, caller, outcome]) => `${id} as ${caller}: policy says ${expected(id, caller)}, expected ${outcome}`);
    expect(wrong).toEqual([]);
  });

  it('each caller gets what the role table says, and never another tenant\'s data', async () => {
    const routes = matrixRoutes().filter((e) => ROUTE_CLASSES[e.id])
      .map((e, i) => ({ e, rank: ROUTE_CLASSES[e.id].rank ?? (e.method === 'GET' ? 0 : 1), i }))
      .sort((x, y) => x.rank - y.rank || x.i - y.i).map((x) => x.e);
    const mismatches: string[] = [];
    const counts: Record<string, Record<Outcome, number>> = {};
    let calls = 0;
    for (const endpoint of routes) {
      const spec = ROUTE_CLASSES[endpoint.id];
      const bodyOf = async () => (endpoint.method === 'GET' ? undefined : spec.body ? spec.body() : (endpoint.example?.request ?? {}));
      const callAs = async (caller: Caller) => {
        const want = expected(endpoint.id, caller);
        (counts[caller] ??= { allowed: 0, forbidden: 0, hidden: 0, unauthenticated: 0 })[want] += 1;
        const body = await bodyOf();
        const got = await s.call(endpoint.method, pathOf(endpoint, true, caller), { ...authOf(caller), body });
        calls += 1;
        const id = `${endpoint.id} (${endpoint.method} ${endpoint.path}) as ${caller}`;
        const text = JSON.stringify(got.body ?? '');
        const said = `${got.status} ${got.body?.error ?? ''} ${String(got.body?.message ?? got.body?.msg ?? '').slice(0, 120)}`;
        if (text.includes(SECRET_B)) mismatches.push(`${id}: answer carries tenant B's data`);
        if (want === 'allowed') {
          if (got.status < 200 || got.status >= 300) mismatches.push(`${id}: expected allowed, got ${said}`);
          return;
        }
        if (text.includes(SECRET_A)) mismatches.push(`${id}: a ${want} answer carries tenant A's data`);
        if (want === 'unauthenticated' && got.status !== 401) mismatches.push(`${id}: expected 401, got ${said}`);
        if (want === 'forbidden' && got.status !== 403) mismatches.push(`${id}: expected 403, got ${said}`);
        if (want === 'hidden') {
          const missing = await s.call(endpoint.method, pathOf(endpoint, false, caller), { ...authOf(caller), body });
          calls += 1;
          if (![403, 404, spec.bodyIdStatus].includes(got.status) || got.status !== missing.status || got.body?.error !== missing.body?.error) {
            mismatches.push(`${id}: expected hidden (as missing ids: ${missing.status} ${missing.body?.error ?? ''}), got ${said}`);
          }
        }
      };
      // Callers that must be refused first, then the allowed ones (a delete must not race the refusals).
      await Promise.all(CALLERS.filter((c) => expected(endpoint.id, c) !== 'allowed').map(callAs));
      await Promise.all(CALLERS.filter((c) => expected(endpoint.id, c) === 'allowed').map(callAs));
    }
    console.log([
      `role matrix: ${routes.length} routes × ${CALLERS.length} callers (${calls} calls), ${mismatches.length} mismatches`,
      ...CALLERS.map((c) => `  ${c}: ${Object.entries(counts[c]).filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n}`).join(', ')}`),
      ...mismatches.map((m) => `  MISMATCH ${m}`),
    ].join('\n'));
    expect(mismatches).toEqual([]);
  }, 300_000);
});
