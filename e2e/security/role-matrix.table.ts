import { randomBytes } from 'node:crypto';
import type { BaseAction, BaseRole } from '@tabula/auth';
import type { TestUser } from './security.helpers';

/**
 * The role table of the role matrix (role-matrix.test.ts): callers, outcomes,
 * each route's action class and how to call it validly, the hand-written
 * expectations, and the body/query id cases. The ids it names are filled in by
 * the test's fixture (`ids`, `bIds`, `users`) before any call is made.
 */

export type Caller = 'owner' | 'tenant B' | 'viewer' | 'commenter' | 'editor' | "B's base token" | 'anonymous';
export const CALLERS: Caller[] = ['owner', 'tenant B', 'viewer', 'commenter', 'editor', "B's base token", 'anonymous'];
export const MEMBER_ROLE: Partial<Record<Caller, BaseRole>> = { owner: 'owner', viewer: 'viewer', commenter: 'commenter', editor: 'editor' };
export type Outcome = 'allowed' | 'forbidden' | 'hidden' | 'unauthenticated';

/**
 * Action classes. Base classes map to one action of the libs/auth policy;
 * `own-resource` is a resource of one user (org tokens, private
 * integrations): its maker only, everyone else sees it as missing;
 * `comment-author` is a comment written by the owner: commenters and editors
 * may write comments but edit only their own (403).
 */
export const CLASS_ACTION = {
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
export type ActionClass = keyof typeof CLASS_ACTION | 'own-resource' | 'comment-author';

export interface RouteSpec {
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

/** The fixture's users, ids of tenant A's resources, and tenant B's own (filled by the test's beforeAll). */
export const users = {} as Record<'owner' | 'tenant B' | 'viewer' | 'commenter' | 'editor' | 'spare' | 'invitee', TestUser>;
export const ids: Record<string, string> = {};
/** Tenant B's own resources (the body-id test calls them with A's ids in bodies and queries). */
export const bIds: Record<string, string> = {};

/** Calls that need the running stack (set by the test). */
export const live = { columnsHash: (): Promise<string> => Promise.reject(new Error('the stack is not started')) };

/** The one role table: each route's action class (and what it needs to be called validly). */
export const ROUTE_CLASSES: Record<string, RouteSpec> = {
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
  columnsBulk: { class: 'edit-schema', body: async () => ({ hash: await live.columnsHash(), ops: [{ op: 'add', column: { title: `B${randomBytes(4).toString('hex')}`, uidt: 'SingleLineText' } }] }) },
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
export const HAND_WRITTEN: Array<[string, Caller, Outcome]> = [
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
