import { TestApi, col, startTestStack, type TestStack, type TestUser } from '@tabula/testing';
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

export type { TestUser } from '@tabula/testing';

/** JSON over HTTP against a running Tabula (gateway URL); users, bases and records from libs/testing's factories. */
export class TabulaClient {
  readonly api: TestApi;

  constructor(readonly url: string) {
    this.api = new TestApi(url);
  }

  /** One call; `token` goes in xc-auth (a JWT or an API token). */
  async call(method: string, path: string, token?: string, body?: unknown, raw?: string): Promise<Reply> {
    const res = await this.api.call(method, path, { token, body: raw === undefined ? body : undefined, raw, headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: res.body };
  }

  /** Signs up a new user (the first one of a stack is super). */
  signup(name: string): Promise<TestUser> {
    return this.api.signUp(name);
  }

  /**
   * A base with one table (Id, Title) and `rows` records, created by `creator`
   * (only org-level creators, e.g. the first user, may create bases); `owner`,
   * when given, is made the base's owner too.
   */
  async baseWithTable(creator: TestUser, rows = 3, owner?: TestUser): Promise<{ baseId: string; tableId: string; rowIds: string[] }> {
    const base = await this.api.createBase(creator);
    if (owner) await this.addMember(creator, base.id, owner, 'owner');
    const table = await this.api.createTable(creator, base.id, { title: 'Tasks', table_name: 'tasks', columns: [col.id(), col.text('Title')] });
    const records = await this.api.insertRecords(creator, table, Array.from({ length: rows }, (_, i) => ({ Title: `task ${i}` })));
    return { baseId: base.id, tableId: table.id, rowIds: records.map((r) => String(r.Id)) };
  }

  /** Inserts a record and returns its id. */
  async insert(user: TestUser, baseId: string, tableId: string, title: string): Promise<string> {
    const [record] = await this.api.insertRecords(user, { id: tableId, baseId }, [{ Title: title }]);
    return String(record.Id);
  }

  /** Gives a user a role in a base. */
  addMember(owner: TestUser, baseId: string, user: TestUser, role: string): Promise<void> {
    return this.api.addMember(owner, baseId, user.email, role);
  }

  /** A base-scoped API token of `owner`. */
  baseToken(owner: TestUser, baseId: string): Promise<string> {
    return this.api.baseToken(owner, baseId, 'comments test');
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
