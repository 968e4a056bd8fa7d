import { startTestStack, type TestStack } from '@tabula/testing';
import type { ServiceDefinition } from '@tabula/runtime';
import { authService } from '../services/auth/src/service';
import { metaService } from '../services/meta/src/service';
import { dataService } from '../services/data/src/service';
import { gatewayService } from '../services/gateway/src/service';
import { commentsService } from '../services/comments/src/service';

/** The services comments needs (auth for roles, meta for tables, data for records) and the gateway. */
export const commentStackServices: ServiceDefinition<any, any>[] = [authService, metaService, dataService, commentsService, gatewayService];

/** A JSON answer. */
export interface Reply {
  status: number;
  body: any;
}

/** A signed-up user. */
export interface TestUser {
  token: string;
  email: string;
  id: string;
}

/** JSON over HTTP against a running Tabula (gateway URL). */
export class TabulaClient {
  private n = 0;

  constructor(readonly url: string) {}

  /** One call; `token` goes in xc-auth (a JWT or an API token). */
  async call(method: string, path: string, token?: string, body?: unknown, raw?: string): Promise<Reply> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['xc-auth'] = token;
    const res = await fetch(`${this.url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Signs up a new user (the first one of a stack is super). */
  async signup(name: string): Promise<TestUser> {
    const email = `${name}-${Date.now()}-${(this.n += 1)}@example.com`;
    const res = await this.call('POST', '/api/v1/auth/user/signup', undefined, { email, password: 'Password123!' });
    if (res.status !== 200) throw new Error(`signup ${res.status} ${JSON.stringify(res.body)}`);
    const me = await this.call('GET', '/api/v1/auth/user/me', res.body.token);
    return { token: res.body.token, email, id: me.body.id };
  }

  /**
   * A base with one table (Id, Title) and `rows` records, created by `creator`
   * (only org-level creators, e.g. the first user, may create bases); `owner`,
   * when given, is made the base's owner too.
   */
  async baseWithTable(creator: TestUser, rows = 3, owner?: TestUser): Promise<{ baseId: string; tableId: string; rowIds: string[] }> {
    const base = await this.call('POST', '/api/v1/db/meta/projects', creator.token, { title: `B${Date.now()}${(this.n += 1)}` });
    if (owner) await this.addMember(creator, base.body.id, owner, 'owner');
    const table = await this.call('POST', `/api/v1/db/meta/projects/${base.body.id}/tables`, creator.token, {
      title: 'Tasks', table_name: 'tasks',
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'title', title: 'Title', uidt: 'SingleLineText' }],
    });
    if (table.status !== 200) throw new Error(`table ${table.status} ${JSON.stringify(table.body)}`);
    const rowIds: string[] = [];
    for (let i = 0; i < rows; i += 1) rowIds.push(await this.insert(creator, base.body.id, table.body.id, `task ${i}`));
    return { baseId: base.body.id, tableId: table.body.id, rowIds };
  }

  /** Inserts a record and returns its id. */
  async insert(user: TestUser, baseId: string, tableId: string, title: string): Promise<string> {
    const res = await this.call('POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, user.token, { Title: title });
    if (res.status !== 200) throw new Error(`insert ${res.status} ${JSON.stringify(res.body)}`);
    return String(res.body.Id);
  }

  /** Gives a user a role in a base. */
  async addMember(owner: TestUser, baseId: string, user: TestUser, role: string): Promise<void> {
    const res = await this.call('POST', `/api/v1/db/meta/projects/${baseId}/users`, owner.token, { email: user.email, roles: role });
    if (res.status !== 200) throw new Error(`member ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** A base-scoped API token of `owner`. */
  async baseToken(owner: TestUser, baseId: string): Promise<string> {
    const res = await this.call('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, owner.token, { description: 'comments test' });
    if (res.status !== 200) throw new Error(`token ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token as string;
  }

  /** Creates a comment through the v1 path. */
  comment(token: string, tableId: string, rowId: string, comment: string, extra: Record<string, unknown> = {}): Promise<Reply> {
    return this.call('POST', '/api/v1/db/meta/comments', token, { fk_model_id: tableId, row_id: rowId, comment, ...extra });
  }
}

/** A standalone stack with the comment services on a fresh database. */
export async function startCommentStack(env: Record<string, string> = {}): Promise<{ stack: TestStack; api: TabulaClient }> {
  const stack = await startTestStack(commentStackServices, env);
  return { stack, api: new TabulaClient(stack.url) };
}

/** Polls until `check` returns true (or fails after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
