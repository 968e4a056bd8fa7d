import { randomBytes } from 'node:crypto';
import { TEST_PASSWORD } from '@tabula/testing';
import type { Reply, SecurityStack, TestUser } from './security.helpers';
import { hookBody, ids, own, users, type Caller } from './access-matrix.table';

/** What a request of the fixture's owner looks like (`as` of the test). */
export type As = (path: string, method?: string, body?: unknown, who?: TestUser) => Promise<Reply>;

/** The access matrix's calls that need the running stack: sign-ins, uploads, fresh resources. */
export function matrixFixture(s: SecurityStack) {
  /** A refresh_token cookie of a fresh sign-in (each caller refreshes with its own: refresh rotates it). */
  async function refreshCookie(email: string): Promise<string> {
    const res = await fetch(`${s.url}/api/v1/auth/user/signin`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    if (res.status !== 200 || !cookie.startsWith('refresh_token=')) throw new Error(`sign-in for a refresh cookie: ${res.status}`);
    return cookie;
  }

  /** A fresh session (JWT) of a matrix user, signed in with its current password. */
  async function signIn(caller: Caller): Promise<string> {
    const res = await s.call('POST', '/api/v1/auth/user/signin', { body: { email: users[caller as 'owner'].email, password: own.password[caller] } });
    if (res.status !== 200) throw new Error(`sign-in of ${caller}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  }

  /** A multipart upload as a caller (JWT or API token). */
  async function uploadAs(auth: { token?: string; apiToken?: string }, text = 'matrix file', path = '/api/v1/db/storage/upload'): Promise<{ status: number; body: any }> {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(text)], { type: 'text/plain' }), 'matrix.txt');
    const headers: Record<string, string> = auth.token ? { 'xc-auth': auth.token } : auth.apiToken ? { 'xc-token': auth.apiToken } : {};
    const res = await fetch(`${s.url}${path}`, { method: 'POST', headers, body: form });
    const answer = await res.text();
    return { status: res.status, body: answer ? JSON.parse(answer) : undefined };
  }

  /** A fresh resource of tenant A, made by the owner, for one destructive call. */
  async function make(kind: string, as: As, caller: Caller): Promise<string> {
    const t = () => randomBytes(4).toString('hex');
    // Resources with rules on their maker (comments: the author edits; base tokens: a maker of at least one's role) are the caller's own.
    const maker = (['creator', 'editor', 'commenter'] as Caller[]).includes(caller) ? users[caller as 'creator'] : users.owner;
    switch (kind) {
      case 'table': return s.createTable(users.owner, ids.base, `Doomed ${t()}`);
      case 'column': {
        const title = `D${t()}`;
        await as(`/api/v1/db/meta/tables/${ids.table}/columns`, 'POST', { title, uidt: 'SingleLineText' });
        return (await as(`/api/v1/db/meta/tables/${ids.table}`)).body.columns.find((c: { title: string }) => c.title === title).id;
      }
      case 'view': return (await as(`/api/v1/db/meta/tables/${ids.table}/grids`, 'POST', { title: `D${t()}` })).body.id;
      case 'sort': return (await as(`/api/v1/db/meta/views/${ids.view}/sorts`, 'POST', { fk_column_id: ids.spareColumn, direction: 'desc' })).body.id;
      case 'filter': return (await as(`/api/v1/db/meta/views/${ids.view}/filters`, 'POST', { fk_column_id: ids.column, comparison_op: 'eq', value: t() })).body.id;
      case 'index': return (await as(`/api/v1/db/meta/tables/${ids.table}/indexes`, 'POST', { columns: [await make('column', as, caller)] })).body.id;
      case 'hook': return (await as(`/api/v1/db/meta/tables/${ids.table}/hooks`, 'POST', { ...hookBody(`doomed ${t()}`), active: false })).body.id;
      case 'integration': return (await as('/api/v2/meta/integrations', 'POST', { title: `doomed ${t()}`, type: 'database', sub_type: 'pg', config: { client: 'pg', connection: pgConnection() } })).body.id;
      case 'base': return s.createBase(users.owner, `Doomed ${t()}`);
      case 'record': return String((await as(`/api/v1/db/data/noco/${ids.base}/${ids.table}`, 'POST', { Name: `doomed ${t()}` })).body.Id);
      case 'baseToken': return (await as(`/api/v1/db/meta/projects/${ids.base}/api-tokens`, 'POST', { description: 'doomed' }, maker)).body.id;
      case 'comment': return (await as('/api/v1/db/meta/comments', 'POST', { fk_model_id: ids.table, row_id: ids.anchorRow, comment: `doomed ${t()}` }, maker)).body.id;
      case 'orgToken': return (await as('/api/v1/tokens', 'POST', { description: 'doomed' })).body.id;
      case 'member': {
        const doomed = await s.signUp('doomed', { promote: false });
        await s.addMember(users.owner, ids.base, doomed.email, 'viewer');
        return doomed.id;
      }
      default: throw new Error(`access matrix: cannot make a fresh ${kind}`);
    }
  }

  /** The test PostgreSQL as an integration's connection. */
  function pgConnection() {
    const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    return {
      host: url.hostname, port: Number(url.port || 5432), user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password), database: url.pathname.slice(1) || 'postgres',
    };
  }

  return { refreshCookie, signIn, uploadAs, make, pgConnection };
}
