import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';
import { call, setupTable } from './hooks-e2e.helpers';

const run = promisify(execFile);

/**
 * Cluster mode, the real curl binary with its default headers: a body over
 * 1 MiB makes curl send `Expect: 100-continue`, which the gateway's proxy used
 * to answer with 503 "Service 'data' is unavailable".
 */
describeWithBackend('redis', 'gateway proxy in cluster mode: curl uploads over 1 MiB (Expect: 100-continue), route-template metrics', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  let dir: string;
  let t: Awaited<ReturnType<typeof setupTable>>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-curl-'));
    database = await createTestDatabase();
    // SVC_METRICS_PUBLIC so the test can read the gateway's metrics on its (public) port.
    cluster = await startTestCluster(['auth', 'meta', 'data'], database.url, { SVC_METRICS_PUBLIC: 'true' });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 2 MB bulk insert sent by curl answers 200 and stores every row', async () => {
    t = await setupTable(cluster.gatewayUrl, `curl-${Date.now()}@example.com`);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ Name: `row-${i}-${'x'.repeat(2000)}`, Qty: i }));
    const file = path.join(dir, 'bulk.json');
    writeFileSync(file, JSON.stringify(rows));
    const url = `${cluster.gatewayUrl}/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`;
    const { stdout, stderr } = await run('curl', [
      '-sS', '-v', '-o', path.join(dir, 'answer.json'), '-w', '%{http_code} %{size_upload}',
      '-H', 'content-type: application/json', '-H', `xc-auth: ${t.token}`, '--data-binary', `@${file}`, url,
    ], { maxBuffer: 16 * 1024 * 1024 });
    const [status, uploaded] = stdout.split(' ');
    console.log(`curl: HTTP ${status}, ${uploaded} bytes uploaded; ${stderr.split('\n').filter((l) => /^[<>] (Expect|HTTP)/.test(l)).join(' | ')}`);
    expect(stderr).toMatch(/^> Expect: 100-continue/m);
    expect(Number(uploaded)).toBeGreaterThan(2_000_000);
    expect(status).toBe('200');
    const count = await call(cluster.gatewayUrl, t.token, 'GET', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}/count`);
    expect(count.body).toEqual({ count: 1000 });
  }, 60_000);

  it('labels proxied calls by the route template the service reported; each service serves /metrics on its own port', async () => {
    const res = await fetch(`${cluster.gatewayUrl}/api/v1/db/data/noco/${t.baseId}/${t.tableId}/count`, { headers: { 'xc-auth': t.token } });
    expect(res.status).toBe(200);
    // The service's route report is for the gateway only.
    expect(res.headers.get('x-tabula-route')).toBeNull();
    expect((await fetch(`${cluster.serviceUrl('data')}/healthz`)).status).toBe(200);
    const gateway = await (await fetch(`${cluster.gatewayUrl}/metrics`)).text();
    const data = await (await fetch(`${cluster.serviceUrl('data')}/metrics`)).text();
    const proxied = gateway.split('\n').filter((l) => l.startsWith('http_server_duration_seconds_count') && l.includes('service="gateway"'));
    console.log(proxied.join('\n'));
    expect(proxied.some((l) => l.includes('route="/api/v1/db/data/bulk/:orgs/:baseName/:tableName"') && l.includes('status="200"'))).toBe(true);
    expect(proxied.filter((l) => l.includes('route="unmatched"'))).toEqual([]);
    expect(data).toMatch(/http_server_duration_seconds_count\{[^}]*route="\/api\/v1\/db\/data\/bulk\/:orgs\/:baseName\/:tableName"[^}]*service="data"/);
    expect(data).toMatch(/events_published_total\{[^}]*topic="records"[^}]*service="data"\} [1-9]/);
    expect(data).toMatch(/db_pool_connections\{pool="meta",state="max",service="data"\} 10/);
  }, 30_000);
});
