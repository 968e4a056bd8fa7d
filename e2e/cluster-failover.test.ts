import { createTestDatabase, describeWithBackend, startTestCluster, waitHealthy, type TestCluster, type TestDatabase } from '@tabula/testing';

/**
 * Cluster mode: a service that dies gives 503 JSON through the gateway at once
 * (not a hang), and its routes recover when it is back.
 */
describeWithBackend('redis', 'cluster failover (auth, meta, gateway as separate processes)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  let token = '';

  const listBases = async () => {
    const res = await fetch(`${cluster.gatewayUrl}/api/v1/db/meta/projects/`, { headers: { 'xc-auth': token } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta'], database.url);
    const res = await fetch(`${cluster.gatewayUrl}/api/v1/auth/user/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `failover-${Date.now()}@example.com`, password: 'password-123' }),
    });
    token = ((await res.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
  });

  // (No elapsed-time bound: a refused connection answers at once on any machine; a gateway that hung would hit the test timeout.)
  it('answers 503 JSON while meta is down, and recovers when it is back', async () => {
    expect((await listBases()).status).toBe(200);
    await cluster.kill('meta');
    const down = await listBases();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: 'ERR_SERVICE_UNAVAILABLE', msg: expect.any(String) });
    await cluster.restart('meta');
    await waitHealthy(`${cluster.serviceUrl('meta')}/readyz`);
    expect((await listBases()).status).toBe(200);
  }, 120_000);

  it('keeps the other services answering while one is down', async () => {
    await cluster.kill('meta');
    const me = await fetch(`${cluster.gatewayUrl}/api/v1/auth/user/me`, { headers: { 'xc-auth': token } });
    expect(me.status).toBe(200);
    await cluster.restart('meta');
  }, 120_000);
});
