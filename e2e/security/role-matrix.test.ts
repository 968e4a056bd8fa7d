import { randomBytes } from 'node:crypto';
import { BASE_ACTIONS, roleAllows, type BaseAction, type BaseRole } from '@tabula/auth';
import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { upload } from '../storage-e2e.helpers';
import { startSecurityStack, type Reply, type SecurityStack, type TestUser } from './security.helpers';

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

type Caller = 'owner' | 'tenant B' | 'viewer' | 'commenter' | 'editor' | "B's base token" | 'anonymous';
const CALLERS: Caller[] = ['owner', 'tenant B', 'viewer', 'commenter', 'editor', "B's base token", 'anonymous'];
const MEMBER_ROLE: Partial<Record<Caller, BaseRole>> = { owner: 'owner', viewer: 'viewer', commenter: 'commenter', editor: 'editor' };
type Outcome = 'allowed' | 'forbidden' | 'hidden' | 'unauthenticated';

/**
 * Action classes. Base classes map to one action of the libs/auth policy;
 * `own-resource` is a resource of one user (org tokens, private
 * integrations): its maker only, everyone else sees it as missing;
 * `comment-author` is a comment written by the owner: commenters and editors
 * may write comments but edit only their own (403).
 */
const CLASS_ACTION = {
  read: 'base.read',
  'read-records': 'data.read',
  'read-members': 'members.read',
  comment: 'comment.write',
  'comment-resolve': 'comment.resolve',
  'edit-records': 'data.write',
  'edit-schema': 'schema.write',
  'manage-hooks': 'hook.write',
  'manage-members': 'members.write',
  'manage-tokens': 'token.write',
  'manage-base': 'base.update',
  'delete-base': 'base.delete',
} as const satisfies Record<string, BaseAction>;
type ActionClass = keyof typeof CLASS_ACTION | 'own-resource' | 'comment-author';

interface RouteSpec {
  class: ActionClass;
  /** Request body (else the contract's example). */
  body?: () => unknown | Promise<unknown>;
  /** Ids in the body: another tenant's id answers 400 naming the field, exactly as a missing id does. */
  bodyIdStatus?: 400;
  /** Query string with ids (`?fk_model_id=…`). */
  query?: (real: boolean) => string;
  /** Run order: reads 0, writes 1, deletes 2; what later routes need is destroyed last. */
  rank?: number;
}

let s: SecurityStack;
const users = {} as Record<'owner' | 'tenant B' | 'viewer' | 'commenter' | 'editor' | 'spare' | 'invitee', TestUser>;
let hookServer: http.Server;
let bToken = '';
const ids: Record<string, string> = {};
/** Tenant B's own resources (the body-id test calls them with A's ids in bodies and queries). */
const bIds: Record<string, string> = {};
/** One record per caller, so two callers allowed to delete a record each delete their own. */
const rowOf: Partial<Record<Caller, string>> = {};
const deleteRowOf: Partial<Record<Caller, string>> = {};

/** The one role table: each route's action class (and what it needs to be called validly). */
const ROUTE_CLASSES: Record<string, RouteSpec> = {
  // auth
  orgTokenDelete: { class: 'own-resource', rank: 2 },
  baseTokenList: { class: 'manage-tokens' },
  baseTokenCreate: { class: 'manage-tokens' },
  baseTokenDelete: { class: 'manage-tokens', rank: 2 },
  memberList: { class: 'read-members' },
  memberInvite: { class: 'manage-members', body: () => ({ email: users.invitee.email, roles: 'viewer' }) },
  memberUpdate: { class: 'manage-members', body: () => ({ roles: 'commenter' }) },
  memberRemove: { class: 'manage-members', rank: 2 },
  // meta: bases
  baseGet: { class: 'read' },
  baseInfoGet: { class: 'read' },
  baseSwagger: { class: 'read' },
  baseUpdate: { class: 'manage-base', body: () => ({ meta: { note: 'matrix' } }) },
  baseDuplicate: { class: 'manage-base', body: () => ({ options: { excludeData: true, excludeHooks: true } }) },
  baseDelete: { class: 'delete-base', rank: 9 },
  // meta: tables, columns, views, sorts, filters
  tableList: { class: 'read' },
  tableListOfSource: { class: 'read' },
  tableCreate: { class: 'edit-schema', body: () => ({ title: `T${randomBytes(4).toString('hex')}`, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }) },
  tableCreateInSource: { class: 'edit-schema', body: () => ({ title: `T${randomBytes(4).toString('hex')}`, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }) },
  tableGet: { class: 'read' },
  tableUpdate: { class: 'edit-schema', body: () => ({ meta: { note: 'matrix' } }) },
  tableReorder: { class: 'edit-schema', body: () => ({ order: 1 }) },
  tableDuplicate: { class: 'edit-schema', body: () => ({ options: { excludeData: true } }) },
  tableDelete: { class: 'edit-schema', rank: 8 },
  columnCreate: { class: 'edit-schema', body: () => ({ title: `C${randomBytes(4).toString('hex')}`, uidt: 'SingleLineText' }) },
  columnsHash: { class: 'read' },
  columnsBulk: { class: 'edit-schema', body: async () => ({ hash: await columnsHash(), ops: [{ op: 'add', column: { title: `B${randomBytes(4).toString('hex')}`, uidt: 'SingleLineText' } }] }) },
  columnGet: { class: 'read' },
  columnUpdate: { class: 'edit-schema', body: () => ({ title: 'Spare', uidt: 'SingleLineText' }) },
  columnSetPrimary: { class: 'edit-schema' },
  columnDelete: { class: 'edit-schema', rank: 3 },
  viewList: { class: 'read' },
  gridCreate: { class: 'edit-schema', body: () => ({ title: `V${randomBytes(4).toString('hex')}` }) },
  viewUpdate: { class: 'edit-schema', body: () => ({ meta: { note: 'matrix' } }) },
  viewDelete: { class: 'edit-schema', rank: 3 },
  sortList: { class: 'read' },
  sortCreate: { class: 'edit-schema', body: () => ({ fk_column_id: ids.column, direction: 'asc' }) },
  sortGet: { class: 'read' },
  sortUpdate: { class: 'edit-schema', body: () => ({ direction: 'desc' }) },
  sortDelete: { class: 'edit-schema', rank: 2 },
  filterList: { class: 'read' },
  filterCreate: { class: 'edit-schema', body: () => ({ fk_column_id: ids.column, comparison_op: 'eq', value: 'x' }) },
  filterChildren: { class: 'read' },
  filterGet: { class: 'read' },
  filterUpdate: { class: 'edit-schema', body: () => ({ value: 'y' }) },
  filterDelete: { class: 'edit-schema', rank: 2 },
  indexList: { class: 'read' },
  indexCreate: { class: 'edit-schema', body: () => ({ columns: [ids.column, ids.spareColumn] }) },
  indexDelete: { class: 'edit-schema', rank: 2 },
  // data
  recordList: { class: 'read-records' },
  recordCount: { class: 'read-records' },
  recordFindOne: { class: 'read-records' },
  recordRead: { class: 'read-records' },
  recordExists: { class: 'read-records' },
  recordCreate: { class: 'edit-records', body: () => ({ Name: 'new' }) },
  recordUpdate: { class: 'edit-records', body: () => ({ Name: 'updated' }) },
  recordDelete: { class: 'edit-records', rank: 2.2 },
  recordListInView: { class: 'read-records' },
  recordCountInView: { class: 'read-records' },
  recordFindOneInView: { class: 'read-records' },
  recordReadInView: { class: 'read-records' },
  recordExistsInView: { class: 'read-records' },
  recordCreateInView: { class: 'edit-records', body: () => ({ Name: 'new' }) },
  recordUpdateInView: { class: 'edit-records', body: () => ({ Name: 'updated' }) },
  recordDeleteInView: { class: 'edit-records', rank: 2.1 },
  bulkInsert: { class: 'edit-records', body: () => [{ Name: 'b1' }, { Name: 'b2' }] },
  bulkUpdate: { class: 'edit-records', body: () => [{ Id: Number(ids.bulkRow), Name: 'bulk' }] },
  bulkUpsert: { class: 'edit-records', body: () => [{ Name: 'upserted' }] },
  bulkUpdateAll: { class: 'edit-records', body: () => ({ Name: 'all' }), query: () => `?where=${encodeURIComponent('(Name,eq,nothing-matches)')}` },
  bulkDelete: { class: 'edit-records', body: () => [{ Id: 999999 }], rank: 2 },
  bulkDeleteAll: { class: 'edit-records', query: () => `?where=${encodeURIComponent('(Name,eq,nothing-matches)')}`, rank: 2 },
  dataNestedList: { class: 'read-records' },
  dataNestedExcludedList: { class: 'read-records' },
  dataNestedAdd: { class: 'edit-records' },
  dataNestedRemove: { class: 'edit-records', rank: 2 },
  // hooks
  hookList: { class: 'read' },
  hookCreate: { class: 'manage-hooks', body: () => hookBody('created') },
  hookUpdate: { class: 'manage-hooks', body: () => ({ active: false }) },
  hookLogList: { class: 'manage-hooks' }, // a log holds the target's response, which can echo masked secrets
  hookFilterList: { class: 'read' },
  hookFilterCreate: { class: 'manage-hooks', body: () => ({ fk_column_id: ids.column, comparison_op: 'eq', value: 'x' }) },
  hookTest: { class: 'manage-hooks', body: () => ({ hook: hookBody('test') }) },
  hookSamplePayload: { class: 'read' },
  hookTrigger: { class: 'edit-records' },
  hookDelete: { class: 'manage-hooks', rank: 2 },
  // integrations (a private integration of the owner: the maker only)
  integrationGet: { class: 'own-resource' },
  integrationCreate: { class: 'own-resource', bodyIdStatus: 400, body: () => ({ title: `copy ${randomBytes(3).toString('hex')}`, type: 'database', sub_type: 'pg', is_private: true, copy_from_id: ids.integration }) },
  integrationUpdate: { class: 'own-resource', body: () => ({ title: 'renamed' }) },
  integrationStore: { class: 'own-resource', body: () => ({ op: 'list' }) },
  integrationEndpointCall: { class: 'own-resource', body: () => ({}) }, // `listTables` of the test PostgreSQL
  integrationDelete: { class: 'own-resource', rank: 2 },
  // comments
  commentList: { class: 'read', query: (real) => `?fk_model_id=${real ? ids.table : 'mmissing0000000'}&row_id=${ids.anchorRow}` },
  commentCount: { class: 'read', query: (real) => `?fk_model_id=${real ? ids.table : 'mmissing0000000'}&ids=${ids.anchorRow}` },
  commentCreate: { class: 'comment', body: () => ({ fk_model_id: ids.table, row_id: ids.anchorRow, comment: 'matrix' }) },
  commentUpdate: { class: 'comment-author', body: () => ({ comment: 'edited' }) },
  commentDelete: { class: 'comment-author', rank: 2 },
  commentListV2: { class: 'read' },
  commentCreateV2: { class: 'comment', body: () => ({ comment: 'matrix' }) },
  commentUpdateV2: { class: 'comment-author', body: () => ({ comment: 'edited' }) },
  commentResolve: { class: 'comment-resolve', body: () => ({ resolved: true }) },
  commentDeleteV2: { class: 'comment-author', rank: 2 },
  // storage
  storageBaseUsage: { class: 'manage-base' },
  storageDownloadAttachment: { class: 'read-records', query: () => `?urlOrPath=${encodeURIComponent(ids.attachmentPath)}` },
};

/** Hand-written expectations: the policy table must say these, whatever it says elsewhere. */
const HAND_WRITTEN: Array<[string, Caller, Outcome]> = [
  ['recordList', 'viewer', 'allowed'],
  ['recordCreate', 'viewer', 'forbidden'],
  ['recordCreate', 'commenter', 'forbidden'],
  ['recordCreate', 'editor', 'allowed'],
  ['commentCreate', 'viewer', 'forbidden'],
  ['commentCreate', 'commenter', 'allowed'],
  ['commentResolve', 'editor', 'forbidden'],
  ['columnCreate', 'editor', 'forbidden'],
  ['hookCreate', 'editor', 'forbidden'],
  ['hookList', 'viewer', 'allowed'],
  ['hookLogList', 'editor', 'forbidden'],
  ['memberInvite', 'editor', 'forbidden'],
  ['baseTokenCreate', 'editor', 'forbidden'],
  ['baseDelete', 'editor', 'forbidden'],
  ['baseDuplicate', 'viewer', 'forbidden'],
  ['tableGet', 'tenant B', 'hidden'],
  ['recordList', "B's base token", 'hidden'],
  ['baseDelete', 'owner', 'allowed'],
  ['recordList', 'anonymous', 'unauthenticated'],
];

/** A hook posting to the test's own receiver (local hooks allowed in this stack). */
function hookBody(title: string) {
  return { title, event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path: ids.hookUrl } } };
}

async function columnsHash(): Promise<string> {
  return (await s.call('GET', `/api/v1/db/meta/tables/${ids.table}/columns/hash`, { token: users.owner.token })).body.hash;
}

/** The expected outcome of a call, from the class table and the libs/auth policy. */
function expected(endpointId: string, caller: Caller): Outcome {
  const spec = ROUTE_CLASSES[endpointId];
  if (caller === 'anonymous') return 'unauthenticated';
  // Account-level endpoints refuse every API token (401 ERR_API_TOKEN_NOT_ALLOWED).
  if (caller === "B's base token" && allEndpoints().find((e) => e.id === endpointId)?.jwtOnly) return 'unauthenticated';
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

/**
 * Ids in bodies and queries: tenant B acts on its OWN resources but names one
 * of A's ids in the body or query (a sort on A's column, a reply to A's
 * comment, a link to A's table…). Each must answer exactly as the same call
 * naming an id that does not exist, and never carry A's data. Every route with
 * an id-like body or query field must have a case here (new ones fail, named).
 */
interface BodyIdCase {
  field: string;
  method?: string;
  path: (id: string) => string;
  body?: (id: string) => unknown;
  foreign: () => string;
}
const title = () => `T${randomBytes(4).toString('hex')}`;
const BODY_ID_CASES: Record<string, BodyIdCase[]> = {
  tableList: [{ field: 'sourceId', path: (id) => `/api/v1/db/meta/projects/${bIds.base}/tables?sourceId=${id}`, foreign: () => ids.source }],
  tableListOfSource: [{ field: 'sourceId', path: (id) => `/api/v1/db/meta/projects/${bIds.base}/${id}/tables`, foreign: () => ids.source }],
  tableCreate: [{ field: 'source_id', path: () => `/api/v1/db/meta/projects/${bIds.base}/tables`, body: (id) => ({ title: title(), source_id: id, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }), foreign: () => ids.source }],
  tableCreateInSource: [{ field: 'source_id', path: (id) => `/api/v1/db/meta/projects/${bIds.base}/${id}/tables`, body: (id) => ({ title: title(), source_id: id, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }), foreign: () => ids.source }],
  sortCreate: [
    { field: 'fk_column_id', path: () => `/api/v1/db/meta/views/${bIds.view}/sorts`, body: (id) => ({ fk_column_id: id, direction: 'asc' }), foreign: () => ids.column },
    { field: 'fk_level_id', path: () => `/api/v1/db/meta/views/${bIds.view}/sorts`, body: (id) => ({ fk_column_id: bIds.column, fk_level_id: id, direction: 'asc' }), foreign: () => ids.sort },
  ],
  sortUpdate: [{ field: 'fk_column_id', path: () => `/api/v1/db/meta/sorts/${bIds.sort}`, body: (id) => ({ fk_column_id: id }), foreign: () => ids.column }],
  filterCreate: [
    { field: 'fk_column_id', path: () => `/api/v1/db/meta/views/${bIds.view}/filters`, body: (id) => ({ fk_column_id: id, comparison_op: 'eq', value: 'x' }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v1/db/meta/views/${bIds.view}/filters`, body: (id) => ({ fk_column_id: bIds.column, comparison_op: 'eq', value: 'x', fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  filterUpdate: [
    { field: 'fk_column_id', path: () => `/api/v1/db/meta/filters/${bIds.filter}`, body: (id) => ({ fk_column_id: id }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v1/db/meta/filters/${bIds.filter}`, body: (id) => ({ fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  bulkUpdateAll: [{ field: 'viewId', path: (id) => `/api/v1/db/data/bulk/noco/${bIds.base}/${bIds.table}/all?viewId=${id}&where=${encodeURIComponent('(Name,eq,nothing)')}`, body: () => ({ Name: 'x' }), foreign: () => ids.view }],
  bulkDeleteAll: [{ field: 'viewId', path: (id) => `/api/v1/db/data/bulk/noco/${bIds.base}/${bIds.table}/all?viewId=${id}&where=${encodeURIComponent('(Name,eq,nothing)')}`, foreign: () => ids.view }],
  hookFilterCreate: [
    { field: 'fk_column_id', path: () => `/api/v1/db/meta/hooks/${bIds.hook}/filters`, body: (id) => ({ fk_column_id: id, comparison_op: 'eq', value: 'x' }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v1/db/meta/hooks/${bIds.hook}/filters`, body: (id) => ({ fk_column_id: bIds.column, comparison_op: 'eq', value: 'x', fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  integrationCreate: [{ field: 'copy_from_id', path: () => '/api/v2/meta/integrations', body: (id) => ({ title: title(), type: 'database', sub_type: 'pg', copy_from_id: id }), foreign: () => ids.integration }],
  commentList: [{ field: 'fk_model_id', path: (id) => `/api/v1/db/meta/comments?fk_model_id=${id}&row_id=1`, foreign: () => ids.table }],
  commentCount: [{ field: 'fk_model_id', path: (id) => `/api/v1/db/meta/comments/count?fk_model_id=${id}&ids=1`, foreign: () => ids.table }],
  commentCreate: [
    { field: 'fk_model_id', path: () => '/api/v1/db/meta/comments', body: (id) => ({ fk_model_id: id, row_id: '1', comment: 'x' }), foreign: () => ids.table },
    { field: 'parent_comment_id', path: () => '/api/v1/db/meta/comments', body: (id) => ({ fk_model_id: bIds.table, row_id: '1', comment: 'x', parent_comment_id: id }), foreign: () => ids.comment },
  ],
  commentUpdate: [{ field: 'fk_model_id', path: () => `/api/v1/db/meta/comment/${bIds.comment}`, body: (id) => ({ comment: 'x', fk_model_id: id }), foreign: () => ids.table }],
  commentCreateV2: [{ field: 'parent_comment_id', path: () => `/api/v2/tables/${bIds.table}/records/1/comments`, body: (id) => ({ comment: 'x', parent_comment_id: id }), foreign: () => ids.comment }],
  // Loose bodies (not found by the key scan): links and lookups name other tables and columns.
  columnCreate: [
    { field: 'childId', path: () => `/api/v1/db/meta/tables/${bIds.table}/columns`, body: (id) => ({ title: title(), uidt: 'Links', parentId: bIds.table, childId: id, type: 'mm' }), foreign: () => ids.table },
    { field: 'colOptions.fk_related_model_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/columns`, body: (id) => ({ title: title(), uidt: 'LinkToAnotherRecord', colOptions: { type: 'hm', fk_related_model_id: id } }), foreign: () => ids.table },
    { field: 'fk_relation_column_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/columns`, body: (id) => ({ title: title(), uidt: 'Lookup', fk_relation_column_id: id, fk_lookup_column_id: ids.column }), foreign: () => ids.linkColumn },
  ],
  columnsBulk: [
    { field: 'ops[].column.childId', path: () => `/api/v1/db/meta/tables/${bIds.table}/columns/bulk`, body: (id) => ({ hash: bIds.hash, ops: [{ op: 'add', column: { title: title(), uidt: 'Links', parentId: bIds.table, childId: id, type: 'mm' } }] }), foreign: () => ids.table },
    { field: 'ops[].column.id', path: () => `/api/v1/db/meta/tables/${bIds.table}/columns/bulk`, body: (id) => ({ hash: bIds.hash, ops: [{ op: 'update', column: { id, title: 'renamed' } }] }), foreign: () => ids.column },
  ],
  gridCreate: [{ field: 'copy_from_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/grids`, body: (id) => ({ title: title(), copy_from_id: id }), foreign: () => ids.view }],
};
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
