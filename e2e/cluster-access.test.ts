import { createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';

/**
 * Cluster mode: base roles are cached in every service process (30 s), so a
 * membership change must reach them over the bus. Here meta runs as its own
 * process; a member removed in auth loses access to the base in meta at once.
 */
describeWithBackend('redis', 'base roles across processes (auth, meta, gateway)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${cluster.gatewayUrl}${path}`, {
      method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const signup = async (name: string) => {
    const email = `${name}-${Date.now()}@example.com`;
    const res = await fetch(`${cluster.gatewayUrl}/api/v1/auth/user/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'password-123' }),
    });
    const { token } = (await res.json()) as { token: string };
    const me = await call('GET', '/api/v1/auth/user/me', token);
    return { token, email, id: me.body.id as string };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta'], database.url);
  }, 120_000);
  afterAll(async () => { await cluster?.stop(); await database?.drop(); });

  it('a removed member is refused by meta within a second, not after the cache lifetime', async () => {
    const owner = await signup('owner');
    const member = await signup('member');
    const base = await call('POST', '/api/v1/db/meta/projects', owner.token, { title: 'Shared' });
    expect(base.status).toBe(200);
    const baseId = base.body.id as string;
    expect((await call('POST', `/api/v1/db/meta/projects/${baseId}/users`, owner.token, { email: member.email, roles: 'editor' })).status).toBe(200);
    // This read caches the member's role in meta for 30 s: only the membership event can end it sooner.
    const cachedAt = Date.now();
    expect((await call('GET', `/api/v1/db/meta/projects/${baseId}/tables`, member.token)).status).toBe(200);

    expect((await call('DELETE', `/api/v1/db/meta/projects/${baseId}/users/${member.id}`, owner.token)).status).toBe(200);
    let status = 200;
    // Polled until 5 s before the cache entry would expire by itself (no elapsed-time bound on the event's latency).
    while (status === 200 && Date.now() - cachedAt < 25_000) {
      status = (await call('GET', `/api/v1/db/meta/projects/${baseId}/tables`, member.token)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    // A removed member sees the base as missing (another tenant's resource answers like a missing one).
    expect(status).toBe(404);
  }, 60_000);
});
