import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/** Issue 17 defect 13: where an external source may point, and what its errors tell. */
const database = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
/** The test database's credentials (the embedded PostgreSQL uses password auth; a local one may trust). */
const credentials = { user: decodeURIComponent(database.username) || 'postgres', ...(database.password ? { password: decodeURIComponent(database.password) } : {}) };
let strict: SecurityStack;
let open: SecurityStack;
let strictUser: TestUser;
let openUser: TestUser;

beforeAll(async () => {
  strict = await startSecurityStack();
  open = await startSecurityStack({ SVC_ALLOW_LOCAL_SOURCES: 'true' });
  strictUser = await strict.signUp('src');
  openUser = await open.signUp('src');
}, 120_000);
afterAll(async () => { await strict?.stop(); await open?.stop(); });

const external = (s: SecurityStack, user: TestUser, connection: unknown) => s.call('POST', '/api/v1/db/meta/projects/', {
  token: user.token, body: { title: `Ext${Date.now()}`, external: true, sources: [{ type: 'pg', config: { client: 'pg', connection } }] },
});

describe('security: external sources', () => {
  it('defect 13: loopback, private and link-local source hosts are refused unless SVC_ALLOW_LOCAL_SOURCES=true', async () => {
    const own = { host: database.hostname, port: Number(database.port || 5432), ...credentials, database: 'postgres' };
    for (const connection of [
      own, { ...own, host: 'localhost' }, { ...own, host: '10.1.2.3' }, { ...own, host: '169.254.169.254' }, { ...own, host: '::1' },
      { ...own, host: undefined }, `postgres://${own.user}@${own.host}:${own.port}/postgres`, `postgres://${own.user}@example.com/postgres?host=/var/run/postgresql`,
    ]) {
      const res = await external(strict, strictUser, connection);
      expect([JSON.stringify(connection), res.status, res.body.message]).toEqual([JSON.stringify(connection), 400, expect.stringContaining('not allowed')]);
    }
    const allowed = await external(open, openUser, own);
    expect(allowed.status).toBe(200);
    const metadata = await external(open, openUser, { ...own, host: '169.254.169.254' });
    expect([metadata.status, metadata.body.message]).toEqual([400, expect.stringContaining('not allowed')]);
  });

  it('defect 13: connection failures answer one message (closed port, wrong database, wrong user) within a short timeout', async () => {
    const base = { host: database.hostname, user: database.username || 'postgres', password: 'x' };
    const answers = new Set<string>();
    for (const connection of [{ ...base, port: 1, database: 'postgres' }, { ...base, port: Number(database.port || 5432), database: 'no_such_db_x' },
      { ...base, port: Number(database.port || 5432), user: 'no_such_user_x', database: 'postgres' }]) {
      const res = await external(open, openUser, connection);
      expect(res.status).toBe(400);
      answers.add(JSON.stringify(res.body));
    }
    expect([...answers]).toEqual([JSON.stringify({ error: 'ERR_INVALID_REQUEST_BODY', message: 'Cannot connect to the external pg database', msg: 'Cannot connect to the external pg database' })]);
    // An address that drops packets: the service's connect timeout answers (400), well before the test's 30 s timeout.
    const blackhole = await external(open, openUser, { ...base, host: '10.255.255.1', port: 5432, database: 'postgres' });
    expect(blackhole.status).toBe(400);
  }, 30_000);
});
