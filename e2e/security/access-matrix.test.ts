import { randomBytes } from 'node:crypto';
import { BASE_ACTIONS } from '@tabula/auth';
import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import { TEST_PASSWORD } from '@tabula/testing';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSecurityStack, type Reply, type SecurityStack } from './security.helpers';
import {
  BODY_ID_CASES, CALLERS, IN_A, ROUTE_CALLS, bIds, hookBody, ids, live, own, users,
  type Caller, type Outcome,
} from './access-matrix.table';
import { expectedOutcome, KIND_OF } from './access-matrix.expect';
import { matrixFixture } from './access-matrix.fixture';
import { WsClient } from '../realtime.helpers';

/**
 * The access matrix (issue 28): EVERY public contract × every kind of
 * principal — the owner, a creator, an editor, a commenter, a viewer and a
 * no-access member of tenant A's base, another tenant, a base-scoped token of
 * another base, the owner's org token, no credentials — against a running
 * stack. The expected answer of each call is derived from the contract's
 * `auth` declaration alone (access-matrix.expect.ts): removing or changing
 * one permission in one contract changes the reviewed docs/access-matrix.md
 * (scripts/checks/access-matrix-doc.test.ts fails) and the hand-written
 * anchors here. Every public contract is walked; one whose example is no
 * valid call needs an entry in ROUTE_CALLS (its allowed callers fail, named).
 *
 * Outcomes: `allowed` (2xx; a caller outside A's base never gets A's data),
 * `admitted` (a public endpoint: not refused with 401/403), `forbidden`
 * (403), `hidden` (exactly the answer of the same call with ids that do not
 * exist, never A's data), `unauthenticated` (401).
 */
const SECRET_A = `tenantA-${randomBytes(6).toString('hex')}`;
const SECRET_B = `tenantB-${randomBytes(6).toString('hex')}`;


let s: SecurityStack;
let f: ReturnType<typeof matrixFixture>;
let hookServer: http.Server;
let bToken = '';
/** The owner's org API token (acts as the owner, everywhere the owner may). */
let orgToken = '';
/** One record per caller, so two callers allowed to delete a record each delete their own. */
const rowOf: Partial<Record<Caller, string>> = {};
const deleteRowOf: Partial<Record<Caller, string>> = {};




const endpointById = (id: string) => allEndpoints().find((e) => e.id === id) as AnyEndpoint;
const expected = (endpointId: string, caller: Caller): Outcome => expectedOutcome(endpointById(endpointId), caller);

/** Hand-written expectations: the declarations must say these, whatever they say elsewhere. */
const HAND_WRITTEN: Array<[string, Caller, Outcome]> = [
  ['recordList', 'viewer', 'allowed'],
  ['recordCreate', 'viewer', 'forbidden'],
  ['recordCreate', 'commenter', 'forbidden'],
  ['recordCreate', 'editor', 'allowed'],
  ['commentCreate', 'viewer', 'forbidden'],
  ['commentCreate', 'commenter', 'allowed'],
  ['commentResolve', 'editor', 'forbidden'],
  ['columnCreate', 'editor', 'forbidden'],
  ['columnCreate', 'creator', 'allowed'],
  ['hookCreate', 'editor', 'forbidden'],
  ['hookList', 'viewer', 'allowed'],
  ['hookLogList', 'editor', 'forbidden'],
  ['memberInvite', 'editor', 'forbidden'],
  ['baseTokenCreate', 'editor', 'forbidden'],
  ['baseDelete', 'creator', 'forbidden'],
  ['baseDelete', 'owner', 'allowed'],
  ['baseDuplicate', 'viewer', 'forbidden'],
  ['tableGet', 'tenant B', 'hidden'],
  ['tableGet', 'no-access', 'hidden'],
  ['recordList', "B's base token", 'hidden'],
  ['recordList', 'anonymous', 'unauthenticated'],
  ['integrationGet', "B's base token", 'hidden'],
  ['integrationGet', 'viewer', 'hidden'],
  ['integrationList', "B's base token", 'forbidden'],
  ['integrationCreate', "B's base token", 'forbidden'],
  ['authPasswordChange', 'org token', 'unauthenticated'],
  ['orgTokenDelete', 'tenant B', 'hidden'],
  ['recordListV2', 'viewer', 'allowed'],
  ['recordListV2', "B's base token", 'hidden'],
  ['recordCreateV2', 'commenter', 'forbidden'],
  ['recordCreateV2', 'editor', 'allowed'],
  ['recordDeleteV2', 'no-access', 'hidden'],
  ['linkCreateV2', 'viewer', 'forbidden'],
  ['tableGetV2', 'tenant B', 'hidden'],
  ['columnCreateV2', 'editor', 'forbidden'],
  ['hookCreateV2', 'editor', 'forbidden'],
];

/** Tenant A's id (or a missing one) for a path parameter, by name; records per caller. */
function idFor(endpoint: AnyEndpoint, name: string, real: boolean, caller: Caller): string {
  const n = name.toLowerCase();
  const pick = (key: string, fake: string) => (real ? ids[key] : fake);
  if (n === 'orgs') return 'noco';
  if (n === 'file') return 'swagger-ui.css';
  if (n === 'token' && endpoint.id === 'storageSignedDownload') return real ? ids.signedToken : 'dltemp-missing-token';
  if (n === 'token') return real ? 'not-a-valid-token' : 'still-not-a-valid-token';
  if (n === 'path') return pick('attachmentKey', 'uploads/missing/none.txt');
  if (n === 'relationtype') return 'mm';
  if (n === 'event') return 'after';
  if (n === 'operation') return 'insert';
  if (n === 'version') return 'v2';
  if (n === 'endpoint') return 'listTables';
  if (n === 'subtype') return 'pg';
  if (n === 'type') return 'database';
  if (n === 'refrowid') return real ? '1' : '999999';
  if (n === 'columnname' || n === 'linkfieldid') return pick('linkColumn', 'cmissing0000000');
  // NocoDB's open edition lists the caller's bases under any workspace id (v3).
  if (n === 'workspaceid') return real ? 'nc' : 'wmissing';
  if (n === 'fieldid') return pick('spareColumn', 'cmissing0000000');
  if (n === 'id') return pick('orgToken', 'tmissing0000000');
  if (n === 'tokenid') return pick('baseToken', 'tmissing0000000');
  if (n === 'userid') return pick('spareUser', 'umissing0000000');
  if (n === 'sourceid') return pick('source', 'smissing0000000');
  if (n === 'parentid') return pick('filterGroup', 'fmissing0000000');
  if (n === 'indexid') return pick('index', 'imissing0000000');
  if (n.includes('base') || n.includes('project')) return pick('base', 'pmissing0000000');
  if (n.includes('table') || n.includes('model')) return pick('table', 'mmissing0000000');
  if (n.includes('row') || n.includes('record')) return real ? rowFor(endpoint, caller) : '999999';
  if (n.includes('column')) return pick(COLUMN_OF[endpoint.sameAs ?? endpoint.id] ?? 'spareColumn', 'cmissing0000000');
  if (n.includes('view')) return pick(VIEW_OF[endpoint.id] ?? 'view', 'vmissing0000000');
  if (n.includes('hook')) return pick('hook', 'hmissing0000000');
  if (n.includes('sort')) return pick('sort', 'somissing000000');
  if (n.includes('filter')) return pick('filter', 'fmissing0000000');
  if (n.includes('comment')) {
    // Author-only edits: each caller who may comment acts on its own comment, the others on the owner's.
    const key = endpoint.path.startsWith('/api/v2') ? 'comment2' : 'comment';
    return real ? (own[key][caller] ?? ids[key]) : 'comissing000000';
  }
  if (n.includes('integration')) return pick('integration', 'imissing0000000');
  throw new Error(`access matrix: no id for path parameter '${name}' of ${endpoint.id}: teach idFor`);
}

/** Which of A's columns a route's `{columnId}` names (the spare one unless said). */
const COLUMN_OF: Record<string, string> = {
  storageDownloadAttachment: 'attachmentColumn', columnSetPrimary: 'column', gridColumnUpdate: 'gridColumn', formColumnUpdate: 'formColumn',
};
/** Which of A's views a route's `{viewId}` names: a kind's own paths its kind's view (the spare grid unless said). */
const VIEW_OF: Record<string, string> = Object.fromEntries(['form', 'gallery', 'kanban', 'calendar', 'map']
  .flatMap((kind) => [[`${kind}Read`, `${kind}View`], [`${kind}Update`, `${kind}View`]]));

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

function pathOf(endpoint: AnyEndpoint, real: boolean, caller: Caller, fresh: Record<string, string> = {}): string {
  let path = endpoint.path;
  for (const name of pathParamNames(endpoint.path)) {
    const value = fresh[name] ?? idFor(endpoint, name, real, caller);
    path = path.replace(`{${name}}`, name === 'path' || endpoint.id === 'storageSignedDownload' ? value : encodeURIComponent(value));
  }
  return path + (ROUTE_CALLS[endpoint.id]?.query?.(real) ?? '');
}

const BODY_ID = /(^|_)id$|Id$/;
/** Every contract a client can call (the gateway's own included; internal ones never leave the cluster). */
const matrixRoutes = (): AnyEndpoint[] => allEndpoints().filter((e) => e.access !== 'internal');

const authOf = (caller: Caller): { token?: string; apiToken?: string } => {
  if (caller === 'anonymous') return {};
  if (caller === "B's base token") return { apiToken: bToken };
  if (caller === 'org token') return { apiToken: orgToken };
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
  s = await startSecurityStack({ SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_ALLOW_LOCAL_SOURCES: 'true', SVC_ALLOW_LOCAL_UPLOADS: 'true', SVC_AUTH_MAX_FORGOT_PER_EMAIL: '1000' });
  f = matrixFixture(s);
  // The owner and tenant B are org-level creators (they make bases and integrations); base members are org-level viewers.
  const [owner, tenantB] = await Promise.all(['owner', 'tenant-b'].map((n) => s.signUp(n)));
  const [creator, editor, commenter, viewer, noAccess, spare, invitee] = await Promise.all(
    ['creator', 'editor', 'commenter', 'viewer', 'no-access', 'spare', 'invitee'].map((n) => s.signUp(n, { promote: false })));
  Object.assign(users, { owner, 'tenant B': tenantB, creator, editor, commenter, viewer, 'no-access': noAccess, spare, invitee });
  for (const c of [...CALLERS, 'spare' as Caller]) own.password[c] = TEST_PASSWORD;
  const as = (path: string, method = 'GET', body?: unknown, who = owner) => s.call(method, path, { token: who.token, body }).then((r) => ok(r, `${method} ${path}`));

  ids.base = await s.createBase(owner, `Base ${SECRET_A}`);
  ids.table = await s.createTable(owner, ids.base, 'Secrets', [
    { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
    { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
    { column_name: 'spare', title: 'Spare', uidt: 'SingleLineText' },
    { column_name: 'files', title: 'Files', uidt: 'Attachment' },
  ]);
  const tags = await s.createTable(owner, ids.base, 'Tags');
  for (const [role, who] of [['creator', creator], ['editor', editor], ['commenter', commenter], ['viewer', viewer], ['no-access', noAccess], ['viewer', spare]] as const) await s.addMember(owner, ids.base, who.email, role);
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
  const uploaded = await f.uploadAs({ token: owner.token }, `file ${SECRET_A}`);
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
  for (const [kind, path] of VIEW_KINDS) ids[`${kind}View`] = (await as(`/api/v1/db/meta/tables/${ids.table}/${path}`, 'POST', { title: `Spare ${kind}` })).body.id;
  ids.gridColumn = (await as(`/api/v1/db/meta/grids/${ids.view}/grid-columns`)).body.find((c: { fk_column_id: string }) => c.fk_column_id === ids.spareColumn).id;
  ids.formColumn = (await as(`/api/v1/db/meta/views/${ids.formView}/columns`)).body.list.find((c: { fk_column_id: string }) => c.fk_column_id === ids.spareColumn).id;
  ids.filterGroup = (await as(`/api/v1/db/meta/views/${ids.view}/filters`, 'POST', { is_group: true, logical_op: 'and' })).body.id;
  ids.filter = (await as(`/api/v1/db/meta/views/${ids.view}/filters`, 'POST', { fk_column_id: ids.column, comparison_op: 'neq', value: SECRET_A, fk_parent_id: ids.filterGroup })).body.id;
  ids.index = (await as(`/api/v1/db/meta/tables/${ids.table}/indexes`, 'POST', { columns: [ids.spareColumn] })).body.id;
  ids.hook = (await as(`/api/v1/db/meta/tables/${ids.table}/hooks`, 'POST', { ...hookBody(`hook ${SECRET_A}`), active: false })).body.id;
  ids.comment = (await as('/api/v1/db/meta/comments', 'POST', { fk_model_id: ids.table, row_id: ids.anchorRow, comment: SECRET_A })).body.id;
  ids.comment2 = (await as(`/api/v2/tables/${ids.table}/records/${ids.anchorRow}/comments`, 'POST', { comment: SECRET_A })).body.id;
  ids.baseToken = (await as(`/api/v1/db/meta/projects/${ids.base}/api-tokens`, 'POST', { description: 'matrix' })).body.id;
  ids.orgToken = (await as('/api/v1/tokens', 'POST', { description: 'matrix' })).body.id;
  orgToken = (await as('/api/v1/tokens', 'POST', { description: 'matrix caller' })).body.token;
  // A shared integration of the workspace (its title carries no secret: every org creator may read it).
  ids.integration = (await as('/api/v2/meta/integrations', 'POST', {
    title: 'matrix integration', type: 'database', sub_type: 'pg', config: { client: 'pg', connection: f.pgConnection() },
  })).body.id;
  // A private one (its maker alone sees it): the body-id case copies it by id.
  ids.privateIntegration = (await as('/api/v2/meta/integrations', 'POST', {
    title: `private ${SECRET_A}`, type: 'database', sub_type: 'pg', is_private: true, config: { client: 'pg', connection: f.pgConnection() },
  })).body.id;
  ids.attachmentKey = ids.attachmentPath.replace(/^download\//, '');
  // Each caller who may comment writes its own comments (edits are the author's); each user's refresh cookie for the spare.
  for (const c of ['creator', 'editor', 'commenter'] as const) {
    own.comment[c] = (await as('/api/v1/db/meta/comments', 'POST', { fk_model_id: ids.table, row_id: ids.anchorRow, comment: `by ${c}` }, users[c])).body.id;
    own.comment2[c] = (await as(`/api/v2/tables/${ids.table}/records/${ids.anchorRow}/comments`, 'POST', { comment: `by ${c}` }, users[c])).body.id;
  }
  for (const c of CALLERS) {
    own.cookie[c] = await f.refreshCookie(spare.email);
    own.cookie[`${c} v2`] = await f.refreshCookie(spare.email);
  }
  live.pgConnection = f.pgConnection;
  live.socket = async (auth) => {
    const headers: Record<string, string> = auth.apiToken ? { 'xc-token': auth.apiToken } : auth.token ? { 'xc-auth': auth.token } : {};
    let ws: WsClient;
    try {
      ws = await WsClient.open(s.url, '/api/v1/events/ws', headers);
    } catch (err) {
      const refused = err as { status?: number; body?: unknown };
      if (refused.status) return { status: refused.status, body: refused.body };
      throw err;
    }
    const answer = await ws.subscribe({ table_id: ids.table });
    ws.close();
    return { status: 200, body: answer };
  };
  live.upload = (auth, path) => f.uploadAs(auth, undefined, path);
  live.make = (kind, caller) => f.make(kind, as, caller);
  live.newUser = async () => (await s.signUp('invitee', { promote: false })).email;
  const anchorRead = (await as(`/api/v1/db/data/noco/${ids.base}/${ids.table}/${anchor.Id}`)).body;
  ids.signedToken = String(anchorRead.Files[0].signedPath).replace(/^dltemp\//, '');

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
  for (const [kind, path] of VIEW_KINDS) bIds[`${kind}View`] = (await as(`/api/v1/db/meta/tables/${bTable}/${path}`, 'POST', { title: `B ${kind}` }, tenantB)).body.id;
  bToken = (await as(`/api/v1/db/meta/projects/${bBase}/api-tokens`, 'POST', { description: 'b' }, tenantB)).body.token;
  for (const [k, v] of Object.entries({ ...ids, ...Object.fromEntries(Object.entries(bIds).map(([k, v]) => [`b.${k}`, v])) })) expect({ k, v: typeof v }).toEqual({ k, v: 'string' });
}, 180_000);

const MISSING_ID = 'xmissing0000000';
/** The view kinds beyond the grid and their create paths. */
const VIEW_KINDS = [['form', 'forms'], ['gallery', 'galleries'], ['kanban', 'kanbans'], ['calendar', 'calendars'], ['map', 'maps']] as const;
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

describe('access matrix (expected answers derived from the contracts\' auth declarations)', () => {
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

  it('walks every public contract (those without an entry are called with their example), and names no other', () => {
    expect(matrixRoutes().length).toBeGreaterThan(130);
    const stale = Object.keys(ROUTE_CALLS).filter((id) => !matrixRoutes().some((e) => e.id === id));
    expect(stale).toEqual([]);
  });

  it('the declarations say what the hand-written expectations say', () => {
    expect(BASE_ACTIONS['data.write']).toBe('editor');
    const wrong = HAND_WRITTEN.filter(([id, caller, outcome]) => expected(id, caller) !== outcome)
      .map(([id, caller, outcome]) => `${id} as ${caller}: declaration says ${expected(id, caller)}, expected ${outcome}`);
    expect(wrong).toEqual([]);
  });

  it('every contract answers every caller as its declaration says, and never with another tenant\'s data', async () => {
    const routes = matrixRoutes()
      .map((e, i) => ({ e, rank: (ROUTE_CALLS[e.id] ?? ROUTE_CALLS[e.sameAs ?? ''])?.rank ?? (e.method === 'GET' ? 0 : 1), i }))
      .sort((x, y) => x.rank - y.rank || x.i - y.i).map((x) => x.e);
    const mismatches: string[] = [];
    const counts: Record<string, Record<Outcome, number>> = {};
    let calls = 0;
    for (const endpoint of routes) {
      // An alias (NocoDB's v2 path of a v1 contract) is called as its original is, unless it has its own entry.
      const spec = ROUTE_CALLS[endpoint.id] ?? (endpoint.sameAs ? ROUTE_CALLS[endpoint.sameAs] : undefined) ?? {};
      const bodyOf = async (caller: Caller) => (endpoint.method === 'GET' ? undefined : spec.body ? spec.body(caller) : (endpoint.example?.request ?? {}));
      const send = async (caller: Caller, real: boolean, fresh?: Record<string, string>) => {
        if (spec.send) return spec.send(authOf(caller)) as Promise<Reply>;
        const session = spec.freshSession && KIND_OF[caller] === 'session' ? { token: await f.signIn(caller) } : authOf(caller);
        const body = await bodyOf(caller);
        const reply = await s.call(endpoint.method, pathOf(endpoint, real, caller, fresh), { ...session, body, headers: spec.headers?.(caller) });
        spec.after?.(caller, body, reply.status);
        return reply;
      };
      const callAs = async (caller: Caller) => {
        const want = expected(endpoint.id, caller);
        (counts[caller] ??= { allowed: 0, admitted: 0, forbidden: 0, hidden: 0, unauthenticated: 0 })[want] += 1;
        const fresh = want === 'allowed' && spec.fresh ? await spec.fresh(caller) : undefined;
        const got = await send(caller, true, fresh);
        calls += 1;
        const id = `${endpoint.id} (${endpoint.method} ${endpoint.path}) as ${caller}`;
        const text = JSON.stringify(got.body ?? '');
        const said = `${got.status} ${got.body?.error ?? ''} ${String(got.body?.message ?? got.body?.msg ?? '').slice(0, 120)}`;
        if (caller !== 'tenant B' && caller !== "B's base token" && text.includes(SECRET_B)) mismatches.push(`${id}: answer carries tenant B's data`);
        if (!IN_A(caller) && !spec.capability && text.includes(SECRET_A)) mismatches.push(`${id}: a caller outside A's base got tenant A's data`);
        if (want === 'allowed' && (got.status < 200 || got.status >= 300)) mismatches.push(`${id}: expected allowed, got ${said}`);
        const answers = spec.publicAnswer?.(caller);
        if (want === 'admitted' && !answers && [401, 403].includes(got.status)) mismatches.push(`${id}: a public endpoint refused the caller: ${said}`);
        if (want === 'admitted' && answers && !answers.includes(got.status)) mismatches.push(`${id}: expected ${answers.join(' or ')}, got ${said}`);
        if (want === 'unauthenticated' && got.status !== 401) mismatches.push(`${id}: expected 401, got ${said}`);
        if (want === 'forbidden' && got.status !== 403) mismatches.push(`${id}: expected 403, got ${said}`);
        if (want === 'forbidden' && text.includes(SECRET_A)) mismatches.push(`${id}: a 403 carries tenant A's data`);
        if (want === 'hidden') {
          const missing = await send(caller, false);
          calls += 1;
          // NocoDB's v3 paths answer a missing base, table or field with 422 (nocoV3Missing), the others with 404.
          const missingStatus = endpoint.path.startsWith('/api/v3/') ? 422 : 404;
          if (![403, missingStatus, spec.bodyIdStatus].includes(got.status) || got.status !== missing.status || got.body?.error !== missing.body?.error) {
            mismatches.push(`${id}: expected hidden (as missing ids: ${missing.status} ${missing.body?.error ?? ''}), got ${said}`);
          }
          if (text.includes(SECRET_A)) mismatches.push(`${id}: a hidden answer carries tenant A's data`);
        }
      };
      // Callers that must be refused first, then the allowed ones (a delete must not race the refusals).
      await Promise.all(CALLERS.filter((c) => !['allowed', 'admitted'].includes(expected(endpoint.id, c))).map(callAs));
      for (const c of CALLERS.filter((x) => ['allowed', 'admitted'].includes(expected(endpoint.id, x)))) await callAs(c);
    }
    console.log([
      `access matrix: ${routes.length} contracts × ${CALLERS.length} callers (${calls} calls), ${mismatches.length} mismatches`,
      ...CALLERS.map((c) => `  ${c}: ${Object.entries(counts[c] ?? {}).filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n}`).join(', ')}`),
      ...mismatches.map((m) => `  MISMATCH ${m}`),
    ].join('\n'));
    expect(mismatches).toEqual([]);
  }, 600_000);
});
