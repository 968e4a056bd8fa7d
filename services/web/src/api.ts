/**
 * The browser's client of the public API (the same paths and shapes every
 * other client uses; contracts: libs/contracts). The session token lives in
 * memory and localStorage and goes only in the `xc-auth` header, never in a URL.
 */
import { isSelectUidt } from '../../../libs/query/src/column/uidt-catalogue';

const TOKEN_KEY = 'tabula-token';
let token: string | null = readStoredToken();
const listeners = new Set<() => void>();

function readStoredToken(): string | null {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function currentToken(): string | null {
  return token;
}

export function setToken(next: string | null): void {
  token = next;
  try {
    if (next) localStorage.setItem(TOKEN_KEY, next);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* private mode: memory only */ }
  for (const listener of listeners) listener();
}

export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An API error: the status and the server's `message`. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function api<T = any>(method: string, path: string, options: { body?: unknown; query?: Query; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers['xc-auth'] = token;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(withQuery(path, options.query), { method, headers, body, credentials: 'same-origin' });
  const text = await response.text();
  let data: any = undefined;
  try { data = text ? JSON.parse(text) : undefined; } catch { data = text; }
  if (!response.ok) {
    if (response.status === 401 && token && !path.startsWith('/api/v1/auth/user/sign')) setToken(null);
    throw new ApiError(response.status, data?.error ?? 'ERR', data?.message ?? data?.msg ?? `${response.status} ${response.statusText}`);
  }
  return data as T;
}

// ---- shapes used by the app (as the API answers them) ----
export interface Base { id: string; title: string; }
export interface SelectOption { id?: string; title: string; color?: string; }
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

const META = '/api/v1/db/meta';

export const auth = {
  signUp: (email: string, password: string) => api<{ token: string }>('POST', '/api/v1/auth/user/signup', { body: { email, password } }),
  signIn: (email: string, password: string) => api<{ token: string }>('POST', '/api/v1/auth/user/signin', { body: { email, password } }),
  signOut: () => api('POST', '/api/v1/auth/user/signout', { body: {} }),
  me: () => api<{ id: string; email: string; roles: string }>('GET', '/api/v1/auth/user/me'),
  forgot: (email: string) => api<{ msg: string }>('POST', '/api/v1/auth/password/forgot', { body: { email } }),
  reset: (resetToken: string, password: string) => api<{ msg: string }>('POST', `/api/v1/auth/password/reset/${encodeURIComponent(resetToken)}`, { body: { password } }),
};

export const bases = {
  list: () => api<{ list: Base[] }>('GET', `${META}/projects`, { query: { limit: 1000 } }).then((r) => r.list),
  create: (title: string) => api<Base>('POST', `${META}/projects`, { body: { title } }),
  rename: (id: string, title: string) => api('PATCH', `${META}/projects/${id}`, { body: { title } }),
  remove: (id: string) => api('DELETE', `${META}/projects/${id}`),
  get: (id: string) => api<Base>('GET', `${META}/projects/${id}`),
  /** The caller's role in the base (members are readable by any member). */
  async myRole(id: string, email: string): Promise<string> {
    const r = await api<{ users: { list: { email: string; roles: string }[] } }>('GET', `${META}/projects/${id}/users`, { query: { limit: 1000 } });
    return r.users.list.find((u) => u.email.toLowerCase() === email.toLowerCase())?.roles ?? 'viewer';
  },
};

export const tables = {
  list: (baseId: string) => api<{ list: Table[] }>('GET', `${META}/projects/${baseId}/tables`).then((r) => r.list),
  create: (baseId: string, title: string, columns: { title: string; uidt: string; options?: string[] }[]) =>
    api<Table>('POST', `${META}/projects/${baseId}/tables`, { body: { title, table_name: identifier(title), columns: columns.map(columnBody) } }),
  get: (id: string) => api<Table>('GET', `${META}/tables/${id}`),
  rename: (id: string, title: string) => api('PATCH', `${META}/tables/${id}`, { body: { title } }),
  remove: (id: string) => api('DELETE', `${META}/tables/${id}`),
  addColumn: (tableId: string, column: { title: string; uidt: string; options?: string[]; formula?: string }) => api('POST', `${META}/tables/${tableId}/columns`, { body: columnBody(column) }),
  removeColumn: (columnId: string) => api('DELETE', `${META}/columns/${columnId}`),
  updateColumn: (columnId: string, patch: { title?: string; colOptions?: { options: SelectOption[] } }) => api<Column>('PATCH', `${META}/columns/${columnId}`, { body: patch }),
};

/** A table or column name the database accepts, from a title (the title keeps what the user typed). */
function identifier(title: string): string {
  return title.normalize('NFKD').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'table';
}

const COLOURS = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ffdaf6', '#ffdce5', '#fee2d5', '#ffeab6', '#d1f7c4', '#ede2fe', '#eeeeee'];

function columnBody(column: { title: string; uidt: string; options?: string[]; formula?: string }): Record<string, unknown> {
  const body: Record<string, unknown> = { title: column.title, column_name: identifier(column.title), uidt: column.uidt };
  if (column.uidt === 'Formula') body.formula_raw = column.formula ?? '';
  if (column.options && isSelectUidt(column.uidt)) {
    body.colOptions = { options: column.options.map((title, i) => ({ title, color: COLOURS[i % COLOURS.length] })) };
  }
  return body;
}

export const views = {
  addFilter: (viewId: string, filter: { fk_column_id: string; comparison_op: string; value: string; comparison_sub_op?: string }) => api('POST', `${META}/views/${viewId}/filters`, { body: filter }),
  removeFilter: (filterId: string) => api('DELETE', `${META}/filters/${filterId}`),
  addSort: (viewId: string, sort: { fk_column_id: string; direction: string }) => api('POST', `${META}/views/${viewId}/sorts`, { body: sort }),
  removeSort: (sortId: string) => api('DELETE', `${META}/sorts/${sortId}`),
  update: (viewId: string, body: Record<string, unknown>) => api('PATCH', `${META}/views/${viewId}`, { body }),
  showColumn: (viewId: string, columnId: string, show: boolean) => api('PATCH', `${META}/views/${viewId}/columns/${columnId}`, { body: { show } }),
  /** A column's place in the view (view columns API, `order`). */
  moveColumn: (viewId: string, columnId: string, order: number) => api('PATCH', `${META}/views/${viewId}/columns/${columnId}`, { body: { order } }),
};

export const records = {
  page: (tableId: string, query: { offset: number; limit: number; where?: string; sort?: string }) =>
    api<Page>('GET', `/api/v2/tables/${tableId}/records`, { query }),
  get: (tableId: string, id: unknown) => api<Row>('GET', `/api/v2/tables/${tableId}/records/${encodeURIComponent(String(id))}`),
  create: (tableId: string, row: Row | Row[]) => api<Row | Row[]>('POST', `/api/v2/tables/${tableId}/records`, { body: row }),
  update: (tableId: string, row: Row | Row[]) => api('PATCH', `/api/v2/tables/${tableId}/records`, { body: row }),
  remove: (tableId: string, keys: Row[]) => api('DELETE', `/api/v2/tables/${tableId}/records`, { body: keys }),
};

export const comments = {
  list: (tableId: string, recordId: unknown) => api<{ list: Comment[] }>('GET', `/api/v2/tables/${tableId}/records/${encodeURIComponent(String(recordId))}/comments`).then((r) => r.list),
  add: (tableId: string, recordId: unknown, comment: string) => api<Comment>('POST', `/api/v2/tables/${tableId}/records/${encodeURIComponent(String(recordId))}/comments`, { body: { comment } }),
  /** Only the author may change a comment (the API answers 403 to others). */
  update: (commentId: string, comment: string) => api<Comment>('PATCH', `/api/v2/comments/${encodeURIComponent(commentId)}`, { body: { comment } }),
  /** Creators and owners resolve (or reopen) any comment of their base. */
  resolve: (commentId: string, resolved: boolean) => api<Comment>('POST', `/api/v2/comments/${encodeURIComponent(commentId)}/resolve`, { body: { resolved } }),
};

export interface UploadedFile { path?: string; url?: string; title: string; mimetype: string; size: number; signedPath?: string; signedUrl?: string; }

export const storage = {
  upload: (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files[]', file, file.name);
    return api<UploadedFile[]>('POST', '/api/v1/db/storage/upload', { form });
  },
};

export const events = {
  ticket: (tableId: string) => api<{ ticket: string }>('POST', '/api/v1/events/tickets', { body: { table_id: tableId } }),
};

export interface Hook {
  id: string; title: string; event: string; operation: string | string[]; active: boolean; version?: string;
  notification?: { type?: string; payload?: { method?: string; path?: string } } | string;
}
export interface HookLog { id: string; created_at?: string; response?: unknown; error?: unknown; error_message?: string | null; payload?: unknown; [key: string]: unknown; }
export interface HookDraft { title: string; event: string; operation: string; url: string; method: string; active: boolean; }

function hookBody(draft: HookDraft): Record<string, unknown> {
  return {
    title: draft.title, event: draft.event, operation: draft.operation, active: draft.active, version: 'v2',
    notification: { type: 'URL', payload: { method: draft.method, path: draft.url } },
  };
}

export const hooks = {
  list: (tableId: string) => api<{ list: Hook[] }>('GET', `${META}/tables/${tableId}/hooks`).then((r) => r.list),
  create: (tableId: string, draft: HookDraft) => api<Hook>('POST', `${META}/tables/${tableId}/hooks`, { body: hookBody(draft) }),
  setActive: (hookId: string, active: boolean) => api<Hook>('PATCH', `${META}/hooks/${hookId}`, { body: { active } }),
  remove: (hookId: string) => api('DELETE', `${META}/hooks/${hookId}`),
  /** Calls the hook once with a sample; a saved hook (`id`) gets the call in its delivery log. */
  test: (tableId: string, draft: HookDraft, id?: string) => api<{ msg: string }>('POST', `${META}/tables/${tableId}/hooks/test`, { body: { hook: { ...hookBody(draft), ...(id ? { id } : {}) } } }),
  logs: (hookId: string) => api<{ list: HookLog[] }>('GET', `${META}/hooks/${hookId}/logs`, { query: { limit: 25 } }).then((r) => r.list),
};

export interface ApiToken { id: string; description: string | null; created_at: string; token?: string; }

export const apiTokens = {
  list: () => api<{ list: ApiToken[] }>('GET', '/api/v1/tokens', { query: { limit: 1000 } }).then((r) => r.list),
  create: (description: string) => api<ApiToken & { token: string }>('POST', '/api/v1/tokens', { body: { description } }),
  revoke: (id: string) => api('DELETE', `/api/v1/tokens/${encodeURIComponent(id)}`),
};

export interface Integration { id: string; title: string; type: string; sub_type: string; enabled: boolean; is_private: boolean; is_default: boolean; created_by: string; }

export const integrations = {
  list: () => api<Integration[] | { list: Integration[] }>('GET', '/api/v2/meta/integrations').then((r) => (Array.isArray(r) ? r : r.list)),
  /** Every type with its sub-types (any signed-in user may read the catalogue). */
  kinds: () => api<{ list: { type: string; subTypes: { type: string; sub_type: string; title: string }[] }[] }>('GET', '/api/v2/integrations')
    .then((r) => r.list.flatMap((t) => t.subTypes)),
  create: (body: { title: string; type: string; sub_type: string; config: Record<string, unknown> }) => api<Integration>('POST', '/api/v2/meta/integrations', { body }),
};
