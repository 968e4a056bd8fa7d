import { randomBytes } from 'node:crypto';
import type { BaseRole } from '@tabula/contracts';
import type { TestUser } from './security.helpers';

/**
 * How to call each endpoint validly (access-matrix.test.ts): the matrix's
 * callers, the fixture's ids, and per contract a body, a query, a run order
 * and, for destructive calls that several callers may make, a fresh resource
 * per allowed caller. Who may call what is NOT written here: the test derives
 * every expected answer from the contracts' `auth` declarations. Every public
 * contract is called; one without an entry with its contract's example.
 */

/** The principal kinds the matrix calls every contract as. */
export const CALLERS = ['owner', 'creator', 'editor', 'commenter', 'viewer', 'no-access', 'tenant B', "B's base token", 'org token', 'anonymous'] as const;
export type Caller = (typeof CALLERS)[number];
/** Each caller's role in tenant A's base (none: another tenant). The org token is the owner's. */
export const ROLE_IN_A: Partial<Record<Caller, BaseRole>> = {
  owner: 'owner', creator: 'creator', editor: 'editor', commenter: 'commenter', viewer: 'viewer', 'no-access': 'no-access', 'org token': 'owner',
};
/** Callers that are base members of A (the others must never see A's data, even when allowed). */
export const IN_A = (c: Caller) => ROLE_IN_A[c] !== undefined && ROLE_IN_A[c] !== 'no-access';
export type Outcome = 'allowed' | 'admitted' | 'forbidden' | 'hidden' | 'unauthenticated';

export interface RouteCall {
  /** Request body (else the contract's example). */
  body?: (caller: Caller) => unknown | Promise<unknown>;
  /** Ids in the body: another tenant's id answers 400 naming the field, exactly as a missing id does. */
  bodyIdStatus?: 400;
  /** Query string (`?fk_model_id=…`). */
  query?: (real: boolean) => string;
  /** Run order: reads 0, writes 1, deletes 2; what later routes need is destroyed last. */
  rank?: number;
  /** A fresh resource for each allowed caller of a destructive call: path parameter values. */
  fresh?: (caller: Caller) => Promise<Record<string, string>>;
  /** Extra headers (a refresh cookie). */
  headers?: (caller: Caller) => Record<string, string> | undefined;
  /** Calls that end the session they run in (sign-out, password change) run in a fresh sign-in of the caller. */
  freshSession?: boolean;
  /** After an answered call (a password change keeps the new password). */
  after?: (caller: Caller, body: any, status: number) => void;
  /** The path itself is the grant (a signed link): its holder reads the file, whoever it is. */
  capability?: boolean;
  /** A public endpoint's answers when its use case decides by caller (else: anything but 401/403). */
  publicAnswer?: (caller: Caller) => number[];
  /** The whole call, when it is no JSON request (a multipart upload). */
  send?: (auth: { token?: string; apiToken?: string }) => Promise<{ status: number; body: any }>;
}

/** The fixture's users, ids of tenant A's resources, and tenant B's own (filled by the test's beforeAll). */
export const users = {} as Record<'owner' | 'creator' | 'editor' | 'commenter' | 'viewer' | 'no-access' | 'tenant B' | 'spare' | 'invitee', TestUser>;
export const ids: Record<string, string> = {};
/** Tenant B's own resources (the body-id test calls them with A's ids in bodies and queries). */
export const bIds: Record<string, string> = {};
/** Each caller's own comment on A's anchor record (callers who may comment), its password, its refresh cookie. */
export const own: Record<'comment' | 'comment2' | 'password' | 'cookie', Record<string, string>> = { comment: {}, comment2: {}, password: {}, cookie: {} };

/** Calls that need the running stack (set by the test). */
export const live = {
  columnsHash: (): Promise<string> => Promise.reject(new Error('the stack is not started')),
  /** Creates a resource as the owner and answers its id (`table`, `column`, `view`, `sort`, …). */
  make: (_kind: string, _caller: Caller): Promise<string> => Promise.reject(new Error('the stack is not started')),
  /** A new org-level viewer's e-mail (someone to invite). */
  newUser: (): Promise<string> => Promise.reject(new Error('the stack is not started')),
  upload: (_auth: { token?: string; apiToken?: string }, _path?: string): Promise<{ status: number; body: any }> => Promise.reject(new Error('the stack is not started')),
  pgConnection: (): Record<string, unknown> => ({}),
  /** Opens GET /api/v1/events/ws as a caller and subscribes to A's table: 200 with the answer once the socket opened, else the refusal. */
  socket: (_auth: { token?: string; apiToken?: string }): Promise<{ status: number; body: any }> => Promise.reject(new Error('the stack is not started')),
};
const fresh = (param: string, kind: string) => async (caller: Caller) => ({ [param]: await live.make(kind, caller) });
const tag = () => randomBytes(4).toString('hex');
const changePassword = (c: Caller) => ({ currentPassword: own.password[c], newPassword: `Matrix-pass-${tag()}` });
const passwordChanged = (c: Caller, body: { newPassword: string }, status: number) => { if (status < 300) own.password[c] = body.newPassword; };

/** How each contract is called validly. */
export const ROUTE_CALLS: Record<string, RouteCall> = {
  // gateway (public)
  health: {}, healthV2: {}, version: {}, versionV2: {}, openApiDocument: {}, apiDocsPage: {}, apiDocsAsset: {},
  // auth: accounts (public ones are admitted for everyone; sign-out and password change last: they end sessions)
  authSignUp: { body: () => ({ email: `m${tag()}@example.com`, password: 'Matrix-pass-1234' }) },
  authSignUpV2: { body: () => ({ email: `m${tag()}@example.com`, password: 'Matrix-pass-1234' }) },
  authSignIn: { body: () => ({ email: users.spare.email, password: own.password.spare }) },
  authSignInV2: { body: () => ({ email: users.spare.email, password: own.password.spare }) },
  authTokenRefresh: { headers: (c) => ({ cookie: own.cookie[c] }) },
  authTokenRefreshV2: { headers: (c) => ({ cookie: own.cookie[`${c} v2`] }) },
  authPasswordForgot: { body: () => ({ email: users.spare.email }) },
  authPasswordForgotV2: { body: () => ({ email: users.spare.email }) },
  authPasswordReset: { body: () => ({ password: 'Matrix-pass-5678' }) },
  authPasswordResetV2: { body: () => ({ password: 'Matrix-pass-5678' }) },
  authMe: {}, authMeV2: {},
  authSignOut: { rank: 10, freshSession: true }, authSignOutV2: { rank: 10, freshSession: true },
  authPasswordChange: { rank: 11, freshSession: true, body: changePassword, after: passwordChanged },
  authPasswordChangeV2: { rank: 11, freshSession: true, body: changePassword, after: passwordChanged },
  // auth: tokens and members
  orgTokenList: {},
  orgTokenCreate: { body: () => ({ description: 'matrix' }) },
  orgTokenDelete: { rank: 2, fresh: fresh('id', 'orgToken') },
  baseTokenList: {},
  baseTokenCreate: { body: () => ({ description: 'matrix' }) },
  baseTokenDelete: { rank: 2, fresh: fresh('tokenId', 'baseToken') },
  memberList: {},
  memberInvite: { body: async () => ({ email: await live.newUser(), roles: 'viewer' }) },
  memberUpdate: { body: () => ({ roles: 'commenter' }) },
  memberRemove: { rank: 2, fresh: fresh('userId', 'member') },
  // meta: bases
  baseList: {},
  baseCreate: { body: () => ({ title: `B${tag()}` }) },
  baseGet: {},
  baseInfoGet: {},
  baseSwagger: {},
  baseSwaggerPage: {},
  baseUpdate: { body: () => ({ meta: { note: 'matrix' } }) },
  baseDuplicate: { body: () => ({ options: { excludeData: true, excludeHooks: true } }) },
  baseDelete: { rank: 9, fresh: fresh('baseId', 'base') },
  // meta: tables, columns, views, sorts, filters
  tableList: {},
  tableListOfSource: {},
  tableCreate: { body: () => ({ title: `T${randomBytes(4).toString('hex')}`, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }) },
  tableCreateInSource: { body: () => ({ title: `T${randomBytes(4).toString('hex')}`, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }) },
  tableGet: {},
  tableUpdate: { body: () => ({ meta: { note: 'matrix' } }) },
  tableReorder: { body: () => ({ order: 1 }) },
  tableDuplicate: { body: () => ({ options: { excludeData: true } }) },
  tableDelete: { rank: 8, fresh: fresh('tableId', 'table') },
  columnCreate: { body: () => ({ title: `C${randomBytes(4).toString('hex')}`, uidt: 'SingleLineText' }) },
  columnsHash: {},
  columnsBulk: { body: async () => ({ hash: await live.columnsHash(), ops: [{ op: 'add', column: { title: `B${randomBytes(4).toString('hex')}`, uidt: 'SingleLineText' } }] }) },
  columnGet: {},
  columnUpdate: { body: () => ({ title: 'Spare', uidt: 'SingleLineText' }) },
  columnSetPrimary: {},
  columnDelete: { rank: 3, fresh: fresh('columnId', 'column') },
  viewList: {},
  gridCreate: { body: () => ({ title: `V${randomBytes(4).toString('hex')}` }) },
  viewUpdate: { body: () => ({ meta: { note: 'matrix' } }) },
  formCreate: { body: () => ({ title: `F${tag()}` }) },
  galleryCreate: { body: () => ({ title: `G${tag()}` }) },
  kanbanCreate: { body: () => ({ title: `K${tag()}` }) },
  calendarCreate: { body: () => ({ title: `C${tag()}` }) },
  mapCreate: { body: () => ({ title: `M${tag()}` }) },
  formUpdate: { body: () => ({ heading: 'matrix' }) },
  gridUpdate: { body: () => ({ row_height: 1 }) },
  viewColumnCreate: { body: () => ({ fk_column_id: ids.spareColumn, show: true }) },
  viewColumnUpdate: { body: () => ({ show: true }) },
  gridColumnUpdate: { body: () => ({ width: '180px' }) },
  formColumnUpdate: { body: () => ({ label: 'matrix' }) },
  // hide-all before show-all: the spare grid ends with every column shown
  viewHideAll: { rank: 1 },
  viewShowAll: { rank: 1.5 },
  viewDelete: { rank: 3, fresh: fresh('viewId', 'view') },
  sortList: {},
  sortCreate: { body: () => ({ fk_column_id: ids.column, direction: 'asc' }) },
  sortGet: {},
  sortUpdate: { body: () => ({ direction: 'desc' }) },
  sortDelete: { rank: 2, fresh: fresh('sortId', 'sort') },
  filterList: {},
  filterCreate: { body: () => ({ fk_column_id: ids.column, comparison_op: 'eq', value: 'x' }) },
  filterChildren: {},
  filterGet: {},
  filterUpdate: { body: () => ({ value: 'y' }) },
  filterDelete: { rank: 2, fresh: fresh('filterId', 'filter') },
  indexList: {},
  indexCreate: { body: async (c) => ({ columns: [await live.make('column', c)] }) },
  indexDelete: { rank: 2, fresh: fresh('indexId', 'index') },
  // data
  recordList: {},
  recordCount: {},
  recordFindOne: {},
  recordRead: {},
  recordExists: {},
  recordCreate: { body: () => ({ Name: 'new' }) },
  recordUpdate: { body: () => ({ Name: 'updated' }) },
  recordDelete: { rank: 2.2 },
  recordListInView: {},
  recordCountInView: {},
  recordFindOneInView: {},
  recordReadInView: {},
  recordExistsInView: {},
  recordCreateInView: { body: () => ({ Name: 'new' }) },
  recordUpdateInView: { body: () => ({ Name: 'updated' }) },
  recordDeleteInView: { rank: 2.1 },
  bulkInsert: { body: () => [{ Name: 'b1' }, { Name: 'b2' }] },
  bulkUpdate: { body: () => [{ Id: Number(ids.bulkRow), Name: 'bulk' }] },
  bulkUpsert: { body: () => [{ Name: 'upserted' }] },
  bulkUpdateAll: { body: () => ({ Name: 'all' }), query: () => `?where=${encodeURIComponent('(Name,eq,nothing-matches)')}` },
  bulkDelete: { body: () => [{ Id: 999999 }], rank: 2 },
  bulkDeleteAll: { query: () => `?where=${encodeURIComponent('(Name,eq,nothing-matches)')}`, rank: 2 },
  dataNestedList: {},
  dataNestedExcludedList: {},
  dataNestedAdd: {},
  dataNestedRemove: { rank: 2 },
  // data v2: updates and deletes name their records in the body (a fresh one per caller); the other v2 calls use their examples.
  recordUpdateV2: { body: async (c) => [{ Id: Number(await live.make('record', c)), Name: 'updated' }] },
  recordDeleteV2: { body: async (c) => [{ Id: Number(await live.make('record', c)) }], rank: 2 },
  // Unlinks the pairs dataNestedRemove needs linked: after it, before the records are deleted (2.1, 2.2).
  linkDeleteV2: { rank: 2.05 },
  // data v2, the rest of nocodb-sdk's calls: bulk reads take an array of aliased queries; a cell's links cleared on a fresh record.
  recordBulkListV2: { body: () => [{ alias: 'a', limit: 1 }] },
  recordBulkGroupV2: { body: () => [{ alias: 'a', column_name: 'Name' }] },
  recordBulkAggregateV2: { body: () => [{ alias: 'a' }] },
  recordMoveV2: {},
  linkCopyPasteOrDeleteAllV2: { body: async (c) => [{ operation: 'deleteAll', rowId: await live.make('record', c) }] },
  // data v3: bodies are `[{ fields }]`, `[{ id, fields }]`, `[{ id }]` (updates and deletes on a fresh record per caller).
  recordCreateV3: { body: () => [{ fields: { Name: 'new' } }] },
  recordUpdateV3: { body: async (c) => [{ id: Number(await live.make('record', c)), fields: { Name: 'updated' } }] },
  recordDeleteV3: { body: async (c) => [{ id: Number(await live.make('record', c)) }], rank: 2 },
  linkDeleteV3: { rank: 2.05 },
  // meta v3 view settings: a sort per field (a fresh column per caller), sorts and filters named by id in the body (fresh ones per caller).
  sortCreateV3: { body: async (c) => ({ field_id: await live.make('column', c), direction: 'desc' }) },
  sortCreateInTableV3: { body: async (c) => ({ field_id: await live.make('column', c), direction: 'desc' }) },
  sortUpdateV3: { body: async (c) => ({ id: await live.make('sort', c), direction: 'asc' }) },
  sortUpdateInTableV3: { body: async (c) => ({ id: await live.make('sort', c), direction: 'asc' }) },
  sortDeleteV3: { body: async (c) => ({ id: await live.make('sort', c) }), rank: 2 },
  sortDeleteInTableV3: { body: async (c) => ({ id: await live.make('sort', c) }), rank: 2 },
  filterCreateV3: { body: () => ({ field_id: ids.column, operator: 'eq', value: 'x' }) },
  filterCreateInTableV3: { body: () => ({ field_id: ids.column, operator: 'eq', value: 'x' }) },
  filterUpdateV3: { body: async (c) => ({ id: await live.make('filter', c), value: 'y' }) },
  filterUpdateInTableV3: { body: async (c) => ({ id: await live.make('filter', c), value: 'y' }) },
  filterDeleteV3: { body: async (c) => ({ id: await live.make('filter', c) }), rank: 2 },
  filterDeleteInTableV3: { body: async (c) => ({ id: await live.make('filter', c) }), rank: 2 },
  viewColumnUpdateV3: { body: () => [{ id: ids.column, show: true }] },
  // meta v3 writes: the v1 use cases' bodies in v3's shapes; deletes on a fresh resource per caller.
  baseCreateV3: { body: () => ({ title: `B${tag()}` }) },
  baseUpdateV3: { body: () => ({ meta: { note: 'matrix' } }) },
  baseDeleteV3: { rank: 9, fresh: fresh('baseId', 'base') },
  tableCreateV3: { body: () => ({ title: `T${randomBytes(4).toString('hex')}`, fields: [{ title: 'Name', type: 'SingleLineText' }] }) },
  tableUpdateV3: { body: () => ({ description: 'matrix' }) },
  tableDeleteV3: { rank: 8, fresh: fresh('tableId', 'table') },
  fieldCreateV3: { body: () => ({ title: `C${randomBytes(4).toString('hex')}`, type: 'SingleLineText' }) },
  fieldUpdateV3: { body: () => ({ title: 'Spare' }) },
  fieldUpdateInTableV3: { body: () => ({ title: 'Spare' }) },
  fieldDeleteV3: { rank: 3, fresh: fresh('fieldId', 'column') },
  fieldDeleteInTableV3: { rank: 3, fresh: fresh('fieldId', 'column') },
  // group-by names its column
  recordGroupBy: { query: () => '?column_name=Name' },
  recordGroupByCount: { query: () => '?column_name=Name' },
  recordGroupByInView: { query: () => '?column_name=Name' },
  recordGroupByCountInView: { query: () => '?column_name=Name' },
  // hooks
  hookList: {},
  hookCreate: { body: () => hookBody('created') },
  hookUpdate: { body: () => ({ active: false }) },
  hookLogList: {}, // a log holds the target's response, which can echo masked secrets
  hookFilterList: {},
  hookFilterCreate: { body: () => ({ fk_column_id: ids.column, comparison_op: 'eq', value: 'x' }) },
  hookTest: { body: () => ({ hook: hookBody('test') }) },
  hookSamplePayload: {},
  hookTrigger: {},
  hookDelete: { rank: 2, fresh: fresh('hookId', 'hook') },
  // integrations (a shared integration made by the owner, an org-level creator; members are org-level viewers)
  integrationGet: {},
  integrationCreate: { body: () => ({ title: `made ${tag()}`, type: 'database', sub_type: 'pg', config: { client: 'pg', connection: live.pgConnection() } }) },
  integrationUpdate: { body: () => ({ title: 'renamed' }) },
  integrationStore: { body: () => ({ op: 'list' }) },
  integrationEndpointCall: { body: () => ({}) }, // `listTables` of the test PostgreSQL
  integrationDelete: { rank: 2, fresh: fresh('integrationId', 'integration') },
  // comments
  commentList: { query: (real) => `?fk_model_id=${real ? ids.table : 'mmissing0000000'}&row_id=${ids.anchorRow}` },
  commentCount: { query: (real) => `?fk_model_id=${real ? ids.table : 'mmissing0000000'}&ids=${ids.anchorRow}` },
  commentCreate: { body: () => ({ fk_model_id: ids.table, row_id: ids.anchorRow, comment: 'matrix' }) },
  commentUpdate: { body: () => ({ comment: 'edited' }) },
  commentDelete: { rank: 2, fresh: fresh('commentId', 'comment') },
  commentListV2: {},
  commentCreateV2: { body: () => ({ comment: 'matrix' }) },
  commentUpdateV2: { body: () => ({ comment: 'edited' }) },
  commentResolve: { body: () => ({ resolved: true }) },
  commentDeleteV2: { rank: 2, fresh: fresh('commentId', 'comment') },
  // storage
  storageBaseUsage: {},
  storageDownloadAttachment: { query: () => `?urlOrPath=${encodeURIComponent(ids.attachmentPath)}` },
  storageUpload: { send: (auth) => live.upload(auth) },
  storageUploadV2: { send: (auth) => live.upload(auth, '/api/v2/storage/upload?base_id=p0000000000000') },
  storageUploadByUrl: { body: () => [{ url: ids.hookUrl }] },
  // Public paths whose use case decides: the file's base members read it, anyone else gets the missing-file answer, no credentials 401.
  storageDownload: { publicAnswer: (c) => (c === 'anonymous' ? [401] : IN_A(c) ? [200] : [404]) },
  // A link signed for the anchor's file: whoever holds it reads it.
  storageSignedDownload: { publicAnswer: () => [200], capability: true },
  integrationList: {},
  integrationTypeList: {},
  integrationTypeGet: {},
  // realtime: streams answer their status and headers (TestApi.call stops reading a 200 event stream)
  eventsTicketCreate: { body: () => ({ table_id: ids.table }) },
  // a WebSocket: a real handshake (a plain GET answers 426); "allowed" is a socket that opened, its subscription then checked on its own
  eventsSocket: { send: (auth) => live.socket(auth) },
};

/** A hook posting to the test's own receiver (local hooks allowed in this stack). */
export function hookBody(title: string) {
  return { title, event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path: ids.hookUrl } } };
}

/**
 * Ids in bodies and queries: tenant B acts on its OWN resources but names one
 * of A's ids in the body or query (a sort on A's column, a reply to A's
 * comment, a link to A's table…). Each must answer exactly as the same call
 * naming an id that does not exist, and never carry A's data. Every route with
 * an id-like body or query field must have a case here (new ones fail, named).
 */
export interface BodyIdCase {
  field: string;
  method?: string;
  path: (id: string) => string;
  body?: (id: string) => unknown;
  foreign: () => string;
}
const title = () => `T${randomBytes(4).toString('hex')}`;
export const BODY_ID_CASES: Record<string, BodyIdCase[]> = {
  tableList: [{ field: 'sourceId', path: (id) => `/api/v1/db/meta/projects/${bIds.base}/tables?sourceId=${id}`, foreign: () => ids.source }],
  tableListV2: [{ field: 'sourceId', path: (id) => `/api/v2/meta/bases/${bIds.base}/tables?sourceId=${id}`, foreign: () => ids.source }],
  tableListOfSource: [{ field: 'sourceId', path: (id) => `/api/v1/db/meta/projects/${bIds.base}/${id}/tables`, foreign: () => ids.source }],
  tableListOfSourceV2: [{ field: 'sourceId', path: (id) => `/api/v2/meta/bases/${bIds.base}/${id}/tables`, foreign: () => ids.source }],
  tableCreateV2: [{ field: 'source_id', path: () => `/api/v2/meta/bases/${bIds.base}/tables`, body: (id) => ({ title: title(), source_id: id, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }), foreign: () => ids.source }],
  tableCreateInSourceV2: [{ field: 'source_id', path: (id) => `/api/v2/meta/bases/${bIds.base}/${id}/tables`, body: (id) => ({ title: title(), source_id: id, columns: [{ title: 'Name', uidt: 'SingleLineText' }] }), foreign: () => ids.source }],
  sortCreateV2: [
    { field: 'fk_column_id', path: () => `/api/v2/meta/views/${bIds.view}/sorts`, body: (id) => ({ fk_column_id: id, direction: 'asc' }), foreign: () => ids.column },
    { field: 'fk_level_id', path: () => `/api/v2/meta/views/${bIds.view}/sorts`, body: (id) => ({ fk_column_id: bIds.column, fk_level_id: id, direction: 'asc' }), foreign: () => ids.sort },
  ],
  sortUpdateV2: [{ field: 'fk_column_id', path: () => `/api/v2/meta/sorts/${bIds.sort}`, body: (id) => ({ fk_column_id: id }), foreign: () => ids.column }],
  filterCreateV2: [
    { field: 'fk_column_id', path: () => `/api/v2/meta/views/${bIds.view}/filters`, body: (id) => ({ fk_column_id: id, comparison_op: 'eq', value: 'x' }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v2/meta/views/${bIds.view}/filters`, body: (id) => ({ fk_column_id: bIds.column, comparison_op: 'eq', value: 'x', fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  filterUpdateV2: [
    { field: 'fk_column_id', path: () => `/api/v2/meta/filters/${bIds.filter}`, body: (id) => ({ fk_column_id: id }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v2/meta/filters/${bIds.filter}`, body: (id) => ({ fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  hookFilterCreateV2: [
    { field: 'fk_column_id', path: () => `/api/v2/meta/hooks/${bIds.hook}/filters`, body: (id) => ({ fk_column_id: id, comparison_op: 'eq', value: 'x' }), foreign: () => ids.column },
    { field: 'fk_parent_id', path: () => `/api/v2/meta/hooks/${bIds.hook}/filters`, body: (id) => ({ fk_column_id: bIds.column, comparison_op: 'eq', value: 'x', fk_parent_id: id }), foreign: () => ids.filterGroup },
  ],
  // data v2: a view of another table (another tenant's) answers as a missing view.
  recordListV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/records?viewId=${id}`, foreign: () => ids.view }],
  recordBulkListV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/bulk/dataList?viewId=${id}`, body: () => [{ alias: 'a' }], foreign: () => ids.view }],
  recordBulkGroupV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/bulk/group?viewId=${id}`, body: () => [{ alias: 'a', column_name: 'Name' }], foreign: () => ids.view }],
  recordBulkAggregateV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/bulk/aggregate?viewId=${id}`, body: () => [{ alias: 'a' }], foreign: () => ids.view }],
  linkCopyPasteOrDeleteAllV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/links/cmissing0000000/records?viewId=${id}`, body: () => [{ operation: 'deleteAll', rowId: '1' }], foreign: () => ids.view }],
  sortCreateV3: [{ field: 'field_id', path: () => `/api/v3/meta/bases/${bIds.base}/views/${bIds.view}/sorts`, body: (id) => ({ field_id: id }), foreign: () => ids.column }],
  sortCreateInTableV3: [{ field: 'field_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables/${bIds.table}/views/${bIds.view}/sorts`, body: (id) => ({ field_id: id }), foreign: () => ids.column }],
  sortUpdateV3: [{ field: 'field_id', path: () => `/api/v3/meta/bases/${bIds.base}/views/${bIds.view}/sorts`, body: (id) => ({ id: bIds.sort, field_id: id }), foreign: () => ids.column }],
  sortUpdateInTableV3: [{ field: 'field_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables/${bIds.table}/views/${bIds.view}/sorts`, body: (id) => ({ id: bIds.sort, field_id: id }), foreign: () => ids.column }],
  recordCountV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/records/count?viewId=${id}`, foreign: () => ids.view }],
  recordAggregateV2: [{ field: 'viewId', path: (id) => `/api/v2/tables/${bIds.table}/aggregate?viewId=${id}`, foreign: () => ids.view }],
  recordListV3: [{ field: 'viewId', path: (id) => `/api/v3/data/${bIds.base}/${bIds.table}/records?viewId=${id}`, foreign: () => ids.view }],
  recordCountV3: [{ field: 'viewId', path: (id) => `/api/v3/data/${bIds.base}/${bIds.table}/count?viewId=${id}`, foreign: () => ids.view }],
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
  integrationCreate: [{ field: 'copy_from_id', path: () => '/api/v2/meta/integrations', body: (id) => ({ title: title(), type: 'database', sub_type: 'pg', copy_from_id: id }), foreign: () => ids.privateIntegration }],
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
  ...Object.fromEntries(([['form', 'forms'], ['gallery', 'galleries'], ['kanban', 'kanbans'], ['calendar', 'calendars'], ['map', 'maps']] as const).flatMap(([kind, path]) => [
    [`${kind}Create`, [{ field: 'copy_from_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/${path}`, body: (id: string) => ({ title: title(), copy_from_id: id }), foreign: () => ids.view }]],
  ])),
  ...Object.fromEntries(([['gallery', 'galleries'], ['kanban', 'kanbans'], ['calendar', 'calendars']] as const).map(([kind, path]) => (
    [`${kind}Update`, [{ field: 'fk_cover_image_col_id', path: () => `/api/v1/db/meta/${path}/${bIds[`${kind}View`]}`, body: (id: string) => ({ fk_cover_image_col_id: id }), foreign: () => ids.attachmentColumn }]]))),
  mapUpdate: [{ field: 'fk_geo_data_col_id', path: () => `/api/v1/db/meta/maps/${bIds.mapView}`, body: (id) => ({ fk_geo_data_col_id: id }), foreign: () => ids.column }],
  kanbanCreate: [
    { field: 'fk_grp_col_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/kanbans`, body: (id) => ({ title: title(), fk_grp_col_id: id }), foreign: () => ids.column },
    { field: 'fk_cover_image_col_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/kanbans`, body: (id) => ({ title: title(), fk_cover_image_col_id: id }), foreign: () => ids.attachmentColumn },
  ],
  calendarCreate: [{ field: 'calendar_range', path: () => `/api/v1/db/meta/tables/${bIds.table}/calendars`, body: (id) => ({ title: title(), calendar_range: [{ fk_from_column_id: id }] }), foreign: () => ids.column }],
  mapCreate: [{ field: 'fk_geo_data_col_id', path: () => `/api/v1/db/meta/tables/${bIds.table}/maps`, body: (id) => ({ title: title(), fk_geo_data_col_id: id }), foreign: () => ids.column }],
  viewColumnCreate: [{ field: 'fk_column_id', path: () => `/api/v1/db/meta/views/${bIds.view}/columns`, body: (id) => ({ fk_column_id: id, show: true }), foreign: () => ids.column }],
  gridCreateV2: [{ field: 'copy_from_id', path: () => `/api/v2/meta/tables/${bIds.table}/grids`, body: (id) => ({ title: title(), copy_from_id: id }), foreign: () => ids.view }],
  tableCreateV3: [{ field: 'source_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables`, body: (id) => ({ title: title(), source_id: id }), foreign: () => ids.source }],
  // A display field of another table (another tenant's) answers as a missing field.
  tableUpdateV3: [{ field: 'display_field_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables/${bIds.table}`, body: (id) => ({ display_field_id: id }), foreign: () => ids.column }],
  fieldCreateV3: [
    { field: 'options.related_table_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables/${bIds.table}/fields`, body: (id) => ({ title: title(), type: 'Links', options: { relation_type: 'mm', related_table_id: id } }), foreign: () => ids.table },
    { field: 'options.related_field_id', path: () => `/api/v3/meta/bases/${bIds.base}/tables/${bIds.table}/fields`, body: (id) => ({ title: title(), type: 'Lookup', options: { related_field_id: id, related_table_lookup_field_id: ids.column } }), foreign: () => ids.linkColumn },
  ],
  columnCreateV2: [
    { field: 'childId', path: () => `/api/v2/meta/tables/${bIds.table}/columns`, body: (id) => ({ title: title(), uidt: 'Links', parentId: bIds.table, childId: id, type: 'mm' }), foreign: () => ids.table },
  ],
  // realtime: a resume id of another tenant's stream is a cursor, answered as any unknown one (a reset)
  eventsTableStream: [{ field: 'last_event_id', path: (id) => `/api/v1/events/tables/${bIds.table}?last_event_id=${id}`, foreign: () => ids.table }],
  eventsBaseStream: [{ field: 'last_event_id', path: (id) => `/api/v1/events/bases/${bIds.base}?last_event_id=${id}`, foreign: () => ids.base }],
};
