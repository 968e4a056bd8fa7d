import { randomBytes } from 'node:crypto';

/**
 * Factories for tests that talk to a running Tabula (a test stack's or
 * cluster's gateway URL) over its public HTTP API: users, bases, tables with
 * columns, records. Every suite builds its world with these instead of its
 * own copy of the sign-up / create-base / create-table calls.
 *
 *   const api = new TestApi(stack.url);
 *   const owner = await api.signUp('owner');
 *   const base = await api.createBase(owner);
 *   const table = await api.createTable(owner, base.id, { columns: [col.id(), col.text('Name')] });
 *   const [row] = await api.insertRecords(owner, table, [{ Name: 'a' }]);
 */

/** The password every factory user signs up with. */
export const TEST_PASSWORD = 'Password123!';

/** An answer as tests look at it: `body` is the parsed JSON (or the text when not JSON). */
export interface ApiReply {
  status: number;
  body: any;
  headers: Headers;
  /** The Set-Cookie lines. */
  cookies: string[];
}

/** Options of one {@link TestApi.call}. */
export interface CallOptions {
  /** A user JWT, sent as `xc-auth`. */
  token?: string;
  /** An API token, sent as `xc-token`. */
  apiToken?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (content type JSON unless `headers` say otherwise). */
  raw?: string;
  headers?: Record<string, string>;
}

/** A signed-up user. */
export interface TestUser {
  email: string;
  token: string;
  id: string;
  /** The roles of the token (`org-level-creator`, `super`, …). */
  roles: string;
}

/** Who calls: a user's JWT is all the factories need. */
export type Caller = Pick<TestUser, 'token'>;

/** A column of a table create body (NocoDB's shape). */
export interface ColumnSpec {
  column_name: string;
  title: string;
  uidt: string;
  pk?: boolean;
  ai?: boolean;
  [option: string]: unknown;
}

/** A created column as meta answers it. */
export interface TestColumn {
  id: string;
  title: string;
  column_name: string;
  uidt: string;
  [field: string]: unknown;
}

/** A created base. */
export interface TestBase {
  id: string;
  title: string;
}

/** A created table with its columns. */
export interface TestTable {
  id: string;
  baseId: string;
  title: string;
  table_name: string;
  columns: TestColumn[];
}

/** A record as data answers it (`Id` for tables made with {@link col.id}). */
export type TestRecord = Record<string, unknown>;

const snake = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'c';

/** Column specs by uidt: `col.text('Name')` is `{column_name: 'name', title: 'Name', uidt: 'SingleLineText'}`. */
export const col = {
  /** The auto-increment primary key `Id`. */
  id: (title = 'Id'): ColumnSpec => ({ column_name: snake(title), title, uidt: 'ID', pk: true, ai: true }),
  of: (uidt: string, title: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ column_name: snake(title), title, uidt, ...extra }),
  text: (title: string): ColumnSpec => col.of('SingleLineText', title),
  longText: (title: string): ColumnSpec => col.of('LongText', title),
  number: (title: string): ColumnSpec => col.of('Number', title),
  checkbox: (title: string): ColumnSpec => col.of('Checkbox', title),
  attachment: (title: string): ColumnSpec => col.of('Attachment', title),
};

/** A unique e-mail for this run. */
export function uniqueEmail(name = 'user'): string {
  return `${name}.${randomBytes(5).toString('hex')}@example.com`;
}

/** A unique title (bases, tables). */
export function uniqueTitle(prefix = 'B'): string {
  return `${prefix}${Date.now()}${randomBytes(3).toString('hex')}`;
}

/** The claims of a user JWT (not verified: the test stack issued it). */
function claimsOf(token: string): { id: string; roles?: string } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { id: string; roles?: string };
}

/** Typed factories over the public HTTP API of a running Tabula. */
export class TestApi {
  constructor(readonly url: string) {}

  /** One call; answers whatever status came back. */
  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiReply> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers['xc-auth'] = options.token;
    if (options.apiToken) headers['xc-token'] = options.apiToken;
    let body: string | undefined = options.raw;
    if (options.raw !== undefined) headers['content-type'] ??= 'application/json';
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body });
    // A live stream (Server-Sent Events) never ends: its status and headers are the answer.
    if (res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, body: undefined, headers: res.headers, cookies: res.headers.getSetCookie() };
    }
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON: keep the text */ }
    return { status: res.status, body: parsed, headers: res.headers, cookies: res.headers.getSetCookie() };
  }

  /** A call that must succeed (2xx); throws naming `what` with the answer otherwise. */
  async ok(method: string, path: string, options: CallOptions, what: string): Promise<ApiReply> {
    const res = await this.call(method, path, options);
    if (res.status < 200 || res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  /** Signs up a new user with a unique e-mail (the first user of a stack is super). */
  async signUp(name = 'user', email = uniqueEmail(name)): Promise<TestUser> {
    const res = await this.ok('POST', '/api/v1/auth/user/signup', { body: { email, password: TEST_PASSWORD } }, 'sign up');
    const token = String(res.body.token);
    const claims = claimsOf(token);
    return { email, token, id: claims.id, roles: String(claims.roles ?? '') };
  }

  /** Creates a base (only org-level creators and super may). */
  async createBase(user: Caller, title = uniqueTitle('B')): Promise<TestBase> {
    const res = await this.ok('POST', '/api/v1/db/meta/projects', { token: user.token, body: { title } }, 'create base');
    return { id: String(res.body.id), title: String(res.body.title) };
  }

  /** Creates a table; default columns `Id` and `Title` (text). */
  async createTable(user: Caller, baseId: string, spec: { title?: string; table_name?: string; columns?: ColumnSpec[] } = {}): Promise<TestTable> {
    const title = spec.title ?? 'Items';
    const body = { title, table_name: spec.table_name ?? snake(title), columns: spec.columns ?? [col.id(), col.text('Title')] };
    const res = await this.ok('POST', `/api/v1/db/meta/projects/${baseId}/tables`, { token: user.token, body }, 'create table');
    return { id: String(res.body.id), baseId, title: String(res.body.title), table_name: String(res.body.table_name), columns: res.body.columns as TestColumn[] };
  }

  /** A base with one table in it. */
  async baseWithTable(user: Caller, spec: { baseTitle?: string; title?: string; table_name?: string; columns?: ColumnSpec[] } = {}): Promise<TestTable> {
    const base = await this.createBase(user, spec.baseTitle);
    return this.createTable(user, base.id, spec);
  }

  /** Inserts records one by one (v1 path) and answers them as created. */
  async insertRecords(user: Caller | { apiToken: string }, table: { id: string; baseId: string }, rows: TestRecord[]): Promise<TestRecord[]> {
    const auth: CallOptions = 'apiToken' in user ? { apiToken: user.apiToken } : { token: user.token };
    const created: TestRecord[] = [];
    for (const row of rows) {
      created.push((await this.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${table.id}`, { ...auth, body: row }, 'insert record')).body as TestRecord);
    }
    return created;
  }

  /** Gives the user with `email` a role in a base. */
  async addMember(owner: Caller, baseId: string, email: string, role: string): Promise<void> {
    await this.ok('POST', `/api/v1/db/meta/projects/${baseId}/users`, { token: owner.token, body: { email, roles: role } }, 'add member');
  }

  /** A base-scoped API token of `owner`. */
  async baseToken(owner: Caller, baseId: string, description = 'test token'): Promise<string> {
    return String((await this.ok('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { token: owner.token, body: { description } }, 'api token')).body.token);
  }
}

/** The column of a table with a title (throws when missing). */
export function columnOf(table: { columns: TestColumn[] }, title: string): TestColumn {
  const found = table.columns.find((c) => c.title === title);
  if (!found) throw new Error(`no column '${title}' in ${table.columns.map((c) => c.title).join(', ')}`);
  return found;
}
