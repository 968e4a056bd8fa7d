import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDatabase, describeOnEachBus, entryArgs, freePort, freePortBase, waitHealthy, type TestDatabase } from '@tabula/testing';
import { Sink, call, setupTable } from './hooks-e2e.helpers';

/**
 * Replicas (`CLUSTER_REPLICAS=data=2,hooks=2` on the real launcher): the gateway
 * takes a service's replicas in turn, and two hooks replicas share one
 * consumer group, so each event reaches the webhook once — the sink counts the
 * requests per webhook-id (duplicates) and per record (losses).
 */
const root = path.resolve(__dirname, '..');
const INSERTS = 30;

/** Sum of a metric's samples whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string>): number {
  return text.split('\n')
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describeOnEachBus('replicas of a service share its work (start:cluster, CLUSTER_REPLICAS)', (bus) => {
  let database: TestDatabase;
  let launcher: ChildProcess;
  let output = '';
  let dataDir = '';
  let gateway = '';
  let base = 0;
  const sink = new Sink();
  let t: Awaited<ReturnType<typeof setupTable>>;
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const replicaPorts = () => ({ data: [base + 3, base + 13], hooks: [base + 7, base + 17] });

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-replicas-'));
    const gatewayPort = await freePort();
    base = await freePortBase([1, 2, 3, 4, 5, 6, 7, 8, 13, 17]);
    gateway = url(gatewayPort);
    const env: NodeJS.ProcessEnv = {
      ...process.env, EVENT_BUS: bus, CLUSTER_REPLICAS: 'data=2,hooks=2', KAFKA_SESSION_TIMEOUT_MS: '8000',
      EVENT_TOPIC_PREFIX: path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, ''), DATA_DIR: dataDir, DATABASE_URL: database.url,
      PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
      SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50',
    };
    for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event']) delete env[name];
    for (const name of ['AUTH', 'META', 'DATA', 'COMMENTS', 'STORAGE', 'INTEGRATIONS', 'HOOKS']) delete env[`${name}_SERVICE_URL`];
    launcher = spawn(process.execPath, entryArgs('scripts/start-cluster.ts'), { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout?.on('data', (chunk) => { output += chunk; });
    launcher.stderr?.on('data', (chunk) => { output += chunk; });
    try {
      await waitHealthy(`${gateway}/healthz`, 120_000);
      for (const port of [...replicaPorts().data, ...replicaPorts().hooks]) await waitHealthy(`${url(port)}/readyz`, 120_000);
    } catch (error) {
      // what the launcher and its children said is the only account of why a replica is not up
      throw new Error(`${(error as Error).message}; the launcher's output:\n${output.split('\n').slice(-60).join('\n')}`);
    }
  }, 180_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    await sink.stop();
  }, 60_000);

  it('the launcher runs two data and two hooks processes; the gateway sends requests to both data replicas', async () => {
    const started = output.match(/\[cluster\] (data|data-2|hooks|hooks-2) pid \d+/g)?.map((line) => line.split(' ')[1]).sort();
    expect({ started, launcher: started?.length === 4 ? '' : output.split('\n').filter((l) => l.startsWith('[cluster]') || /"level":"(error|fatal)"/.test(l)).join('\n') })
      .toEqual({ started: ['data', 'data-2', 'hooks', 'hooks-2'], launcher: '' });
    t = await setupTable(gateway, `replicas-${bus}-${Date.now()}@example.com`);
    const before = await Promise.all(replicaPorts().data.map(async (port) => total(await (await fetch(`${url(port)}/metrics`)).text(), 'http_server_duration_seconds_count', { service: 'data' })));
    for (let i = 0; i < 10; i += 1) expect((await call(gateway, t.token, 'GET', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`)).status).toBe(200);
    const after = await Promise.all(replicaPorts().data.map(async (port) => total(await (await fetch(`${url(port)}/metrics`)).text(), 'http_server_duration_seconds_count', { service: 'data' })));
    const served = after.map((n, i) => n - before[i]);
    console.log(`[${bus}] record reads served per data replica: ${served.join(', ')}`);
    expect(served.every((n) => n >= 4)).toBe(true);
  }, 60_000);

  it('with two hooks replicas, each hook gets each event once: no duplicate, no loss', async () => {
    const hook = await call(gateway, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'replicas', event: 'after', operation: 'insert', version: 'v3', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/replicas` } },
    });
    expect(hook.status).toBe(200);
    const names = Array.from({ length: INSERTS }, (_, i) => `r-${i}`);
    for (const Name of names) expect((await call(gateway, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name })).status).toBe(200);
    await sink.waitFor('/replicas', INSERTS, 60_000);
    await new Promise((r) => setTimeout(r, 2000)); // room for a duplicate to show up
    const requests = sink.at('/replicas');
    const perId = new Map<string, number>();
    for (const r of requests) perId.set(r.headers['webhook-id'], (perId.get(r.headers['webhook-id']) ?? 0) + 1);
    const delivered = new Set(requests.map((r) => (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name));
    const duplicates = [...perId.values()].reduce((sum, n) => sum + n - 1, 0);
    const losses = names.filter((name) => !delivered.has(name)).length;
    const consumed = await Promise.all(replicaPorts().hooks.map(async (port) => total(await (await fetch(`${url(port)}/metrics`)).text(), 'events_consumed_total', { service: 'hooks', topic: 'records' })));
    console.log(`[${bus}] ${INSERTS} inserts, ${requests.length} webhook requests, duplicates ${duplicates}, losses ${losses}; events consumed per hooks replica: ${consumed.join(', ')}`);
    expect({ duplicates, losses, distinctIds: perId.size }).toEqual({ duplicates: 0, losses: 0, distinctIds: INSERTS });
  }, 120_000);
});
