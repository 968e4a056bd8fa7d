/**
 * The app's calls of the public API (the same paths and shapes every other
 * client uses), each through the typed client of its contract in
 * libs/contracts (client.ts): method and path come from the contract, and
 * TypeScript checks the input and the answer against its schemas.
 */
import { isSelectUidt } from '../../../libs/query/src/column/uidt-catalogue';
import { accountV1 } from '../../../libs/contracts/src/auth/account';
import { passwordV1 } from '../../../libs/contracts/src/auth/password';
import { orgTokenCreate, orgTokenDelete, orgTokenList } from '../../../libs/contracts/src/auth/api-tokens';
import { memberList } from '../../../libs/contracts/src/auth/base-members';
import { baseCreate, baseDelete, baseGet, baseList, baseUpdate } from '../../../libs/contracts/src/meta/bases';
import { tableCreate, tableDelete, tableGet, tableList, tableUpdate } from '../../../libs/contracts/src/meta/tables';
import { columnCreate, columnDelete, columnUpdate, type selectOptionSchema } from '../../../libs/contracts/src/meta/columns';
import { viewUpdate } from '../../../libs/contracts/src/meta/views';
import { viewColumnUpdate } from '../../../libs/contracts/src/meta/view-types';
import { filterCreate, filterDelete } from '../../../libs/contracts/src/meta/filters';
import { sortCreate, sortDelete } from '../../../libs/contracts/src/meta/sorts';
import { recordCreateV2, recordDeleteV2, recordListV2, recordReadV2, recordUpdateV2 } from '../../../libs/contracts/src/data/records-v2';
import { commentListV2 } from '../../../libs/contracts/src/comments/comment-list';
import { commentCreateV2 } from '../../../libs/contracts/src/comments/comment-create';
import { commentUpdateV2 } from '../../../libs/contracts/src/comments/comment-update';
import { commentResolve } from '../../../libs/contracts/src/comments/comment-resolve';
import { storageUpload } from '../../../libs/contracts/src/storage/upload.endpoints';
import { eventsTableStream, eventsTicketCreate } from '../../../libs/contracts/src/realtime/index';
import { hookCreate, hookDelete, hookList, hookLogList, hookTest, hookUpdate } from '../../../libs/contracts/src/hooks/hooks';
import { integrationCreate, integrationDelete, integrationList, integrationUpdate } from '../../../libs/contracts/src/integrations/integration-crud';
import { integrationTypeList } from '../../../libs/contracts/src/integrations/integration-types';
import { integrationEndpointCall } from '../../../libs/contracts/src/integrations/integration-calls';
import type { z } from 'zod';
import type { EndpointCall } from '../../../libs/contracts/src/endpoint/define-endpoint';
import { call, urlOf } from './client';

export { api, ApiError, currentToken, onTokenChange, setToken, type Query } from './request';
export { call, urlOf } from './client';

// ---- shapes used by the app (as the API answers them) ----
export interface Base { id: string; title: string; }
/** A select option (its contract: libs/contracts meta/columns.ts). */
export type SelectOption = z.input<typeof selectOptionSchema>;
export interface Column {
  id: string; title: string; column_name: string; uidt: string; pk: boolean; pv: boolean; system: boolean; order?: number;
  colOptions?: { options?: SelectOption[] } | null;
}
export interface ViewFilter { id: string; fk_column_id: string; comparison_op: string; value: unknown; }
export interface ViewSort { id: string; fk_column_id: string; direction: 'asc' | 'desc'; }
export interface ViewColumn { id: string; fk_column_id: string; show: boolean; order?: number; }
export interface View { id: string; title: string; is_default?: boolean; columns?: ViewColumn[]; sorts?: ViewSort[]; filters?: ViewFilter[]; meta?: Record<string, unknown>; }
export interface Table { id: string; title: string; table_name: string; base_id: string; columns?: Column[]; views?: View[]; }
export type Row = Record<string, unknown>;
export interface Page { list: Row[]; pageInfo: { totalRows: number } }
export interface Comment { id: string; comment: string; created_by?: string; created_by_email?: string; created_at?: string; resolved_by?: string | null; resolved_by_email?: string | null; is_edited?: boolean; }

export const auth = {
  signUp: (email: string, password: string) => call(accountV1.signUp, { body: { email, password } }),
  signIn: (email: string, password: string) => call(accountV1.signIn, { body: { email, password } }),
  signOut: () => call(accountV1.signOut, {}),
  me: () => call(accountV1.me, {}),
  forgot: (email: string) => call(passwordV1.forgot, { body: { email } }),
  reset: (resetToken: string, password: string) => call(passwordV1.reset, { params: { token: resetToken }, body: { password } }),
};

export const bases = {
  list: () => call(baseList, { query: { limit: 1000 } }).then((r) => r.list as Base[]),
  create: (title: string) => call(baseCreate, { body: { title } }),
  rename: (id: string, title: string) => call(baseUpdate, { params: { baseId: id }, body: { title } }),
  remove: (id: string) => call(baseDelete, { params: { baseId: id } }),
  get: (id: string) => call(baseGet, { params: { baseId: id } }),
  /** The caller's role in the base (members are readable by any member). */
  async myRole(id: string, email: string): Promise<string> {
    const r = await call(memberList, { params: { baseId: id }, query: { limit: 1000 } });
    return r.users.list.find((u) => u.email.toLowerCase() === email.toLowerCase())?.roles ?? 'viewer';
  },
};

export const tables = {
  list: (baseId: string) => call(tableList, { params: { baseId } }).then((r) => r.list as Table[]),
  create: (baseId: string, title: string, columns: { title: string; uidt: string; options?: string[] }[]) =>
    call(tableCreate, { params: { baseId }, body: { title, table_name: identifier(title), columns: columns.map(columnBody) } }),
  get: (id: string) => call(tableGet, { params: { tableId: id } }) as Promise<Table>,
  rename: (id: string, title: string) => call(tableUpdate, { params: { tableId: id }, body: { title } }),
  remove: (id: string) => call(tableDelete, { params: { tableId: id } }),
  addColumn: (tableId: string, column: { title: string; uidt: string; options?: string[]; formula?: string }) => call(columnCreate, { params: { tableId }, body: columnBody(column) }),
  removeColumn: (columnId: string) => call(columnDelete, { params: { columnId } }),
  updateColumn: (columnId: string, patch: { title?: string; colOptions?: { options: SelectOption[] } }) => call(columnUpdate, { params: { columnId }, body: patch }),
};

/** A table or column name the database accepts, from a title (the title keeps what the user typed). */
function identifier(title: string): string {
  return title.normalize('NFKD').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'table';
}

const COLOURS = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ffdaf6', '#ffdce5', '#fee2d5', '#ffeab6', '#d1f7c4', '#ede2fe', '#eeeeee'];

function columnBody(column: { title: string; uidt: string; options?: string[]; formula?: string }) {
  const body: { title: string; column_name: string; uidt: string; formula_raw?: string; colOptions?: { options: SelectOption[] } } = {
    title: column.title, column_name: identifier(column.title), uidt: column.uidt,
  };
  if (column.uidt === 'Formula') body.formula_raw = column.formula ?? '';
  if (column.options && isSelectUidt(column.uidt)) {
    body.colOptions = { options: column.options.map((title, i) => ({ title, color: COLOURS[i % COLOURS.length] })) };
  }
  return body;
}

export const views = {
  addFilter: (viewId: string, filter: { fk_column_id: string; comparison_op: string; value: string; comparison_sub_op?: string }) => call(filterCreate, { params: { viewId }, body: filter }),
  removeFilter: (filterId: string) => call(filterDelete, { params: { filterId } }),
  addSort: (viewId: string, sort: { fk_column_id: string; direction: 'asc' | 'desc' }) => call(sortCreate, { params: { viewId }, body: sort }),
  removeSort: (sortId: string) => call(sortDelete, { params: { sortId } }),
  update: (viewId: string, body: Record<string, unknown>) => call(viewUpdate, { params: { viewId }, body }),
  showColumn: (viewId: string, columnId: string, show: boolean) => call(viewColumnUpdate, { params: { viewId, columnId }, body: { show } }),
  /** A column's place in the view (view columns API, `order`). */
  moveColumn: (viewId: string, columnId: string, order: number) => call(viewColumnUpdate, { params: { viewId, columnId }, body: { order } }),
};

export const records = {
  page: (tableId: string, query: { offset: number; limit: number; where?: string; sort?: string }) =>
    call(recordListV2, { params: { tableId }, query: { ...query, offset: String(query.offset), limit: String(query.limit) } }) as Promise<Page>,
  get: (tableId: string, id: unknown) => call(recordReadV2, { params: { tableId, recordId: String(id) } }),
  create: (tableId: string, row: Row | Row[]) => call(recordCreateV2, { params: { tableId }, body: row }),
  update: (tableId: string, row: Row | Row[]) => call(recordUpdateV2, { params: { tableId }, body: row }),
  remove: (tableId: string, keys: Row[]) => call(recordDeleteV2, { params: { tableId }, body: keys }),
};

export const comments = {
  list: (tableId: string, recordId: unknown) => call(commentListV2, { params: { tableId, recordId: String(recordId) } }).then((r) => r.list as Comment[]),
  add: (tableId: string, recordId: unknown, comment: string) => call(commentCreateV2, { params: { tableId, recordId: String(recordId) }, body: { comment } }),
  /** Only the author may change a comment (the API answers 403 to others). */
  update: (commentId: string, comment: string) => call(commentUpdateV2, { params: { commentId }, body: { comment } }),
  /** Creators and owners resolve (or reopen) any comment of their base. */
  resolve: (commentId: string, resolved: boolean) => call(commentResolve, { params: { commentId }, body: { resolved } }),
};

export interface UploadedFile { path?: string; url?: string; title: string; mimetype: string; size: number; signedPath?: string; signedUrl?: string; }

export const storage = {
  upload: (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files[]', file, file.name);
    return call(storageUpload, {}, { form }) as Promise<UploadedFile[]>;
  },
};

export const events = {
  ticket: (tableId: string) => call(eventsTicketCreate, { body: { table_id: tableId } }),
  /** The table's change feed for an EventSource: the ticket opens it (never the session token), `last_event_id` resumes it. */
  tableStreamUrl: (tableId: string, ticket: string, lastEventId?: string) =>
    urlOf(eventsTableStream, { params: { tableId }, query: { ticket, last_event_id: lastEventId } }),
};

export interface Hook {
  id: string; title: string; event: string; operation: string | string[]; active: boolean; version?: string;
  notification?: { type?: string; payload?: { method?: string; path?: string } } | string;
}
export interface HookLog { id: string; created_at?: string; response?: unknown; error?: unknown; error_message?: string | null; payload?: unknown; [key: string]: unknown; }
export interface HookDraft { title: string; event: 'after' | 'before'; operation: string; url: string; method: string; active: boolean; }

function hookBody(draft: HookDraft) {
  return {
    title: draft.title, event: draft.event, operation: draft.operation, active: draft.active, version: 'v2' as const,
    notification: { type: 'URL', payload: { method: draft.method, path: draft.url } },
  };
}

export const hooks = {
  list: (tableId: string) => call(hookList, { params: { tableId } }).then((r) => r.list as Hook[]),
  create: (tableId: string, draft: HookDraft) => call(hookCreate, { params: { tableId }, body: hookBody(draft) }) as Promise<Hook>,
  setActive: (hookId: string, active: boolean) => call(hookUpdate, { params: { hookId }, body: { active } }) as Promise<Hook>,
  /** Saves an edited hook: title, event, operation, URL and method, active. */
  update: (hookId: string, draft: HookDraft) => {
    const { title, event, operation, notification, active } = hookBody(draft);
    return call(hookUpdate, { params: { hookId }, body: { title, event, operation, notification, active } }) as Promise<Hook>;
  },
  remove: (hookId: string) => call(hookDelete, { params: { hookId } }),
  /** Calls the hook once with a sample; a saved hook (`id`) gets the call in its delivery log. */
  test: (tableId: string, draft: HookDraft, id?: string) => call(hookTest, { params: { tableId }, body: { hook: { ...hookBody(draft), ...(id ? { id } : {}) } } }),
  logs: (hookId: string) => call(hookLogList, { params: { hookId }, query: { limit: 25 } }).then((r) => r.list as HookLog[]),
};

export interface ApiToken { id: string; description: string | null; created_at: string; token?: string; }

export const apiTokens = {
  list: () => call(orgTokenList, { query: { limit: 1000 } }).then((r) => r.list as ApiToken[]),
  create: (description: string) => call(orgTokenCreate, { body: { description } }),
  revoke: (id: string) => call(orgTokenDelete, { params: { id } }),
};

export interface Integration { id: string; title: string; type: string; sub_type: string; enabled: boolean; is_private: boolean; is_default: boolean; created_by: string; }

export const integrations = {
  list: () => call(integrationList, {}) as Promise<Integration[]>,
  /** Every type with its sub-types (any signed-in user may read the catalogue). */
  kinds: () => call(integrationTypeList, {}).then((r) => r.list.flatMap((t) => t.subTypes)),
  create: (body: EndpointCall<typeof integrationCreate>['body']) => call(integrationCreate, { body }),
  update: (id: string, body: EndpointCall<typeof integrationUpdate>['body']) => call(integrationUpdate, { params: { integrationId: id }, body }),
  remove: (id: string) => call(integrationDelete, { params: { integrationId: id } }),
  /** Calls one of the kind's endpoints (`endpoints` in the catalogue), e.g. `testConnection` of a database. */
  callEndpoint: (id: string, endpoint: string, body: Record<string, unknown> = {}) => call(integrationEndpointCall, { params: { integrationId: id, endpoint }, body }),
};
/** A kind of integration as the catalogue (`GET /api/v2/integrations`) lists it. */
export type IntegrationKind = Awaited<ReturnType<typeof integrations.kinds>>[number];
