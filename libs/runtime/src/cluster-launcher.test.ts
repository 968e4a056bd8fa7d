import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { ClusterLauncher, restartPolicyOf } from './cluster-launcher';
import { clusterLayout, type ClusterLayout } from './cluster-layout';

/**
 * Issue 34 "The cluster launcher", on real child processes (node -e scripts):
 * a crash-looping service is restarted with exponential backoff, then given up
 * on with the reason; every process gets its own METRICS_PORT, all checked
 * before anything starts; one "cluster ready" line with the gateway and docs URLs.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-launcher-unit-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
  });
}

const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', REDIS_URL: 'redis://127.0.0.1:6379', DATA_DIR: dataDir };

describe('restarts', () => {
  it('backs off exponentially on a crash loop, then gives up saying why (and starts nothing more)', async () => {
    const lines: string[] = [];
    const layout: ClusterLayout = {
      processes: [{ name: 'auth', port: await freePort(), setting: 'AUTH_PORT' }],
      env: { DATA_DIR: dataDir, CLUSTER_RESTART_DELAY_MS: '40', CLUSTER_RESTART_MAX_DELAY_MS: '100', CLUSTER_RESTART_MAX_CRASHES: '4' },
    };
    const gaveUp = new Promise<string>((resolve) => {
      const launcher = new ClusterLauncher({
        layout, cwd: dataDir, log: (l) => lines.push(l), onGiveUp: resolve,
        commandOf: () => [process.execPath, '-e', 'process.exit(3)'],
      });
      void launcher.start();
    });
    const reason = await gaveUp;
    const restarts = lines.filter((l) => l.startsWith('auth exited'));
    expect(restarts.map((l) => l.replace(/after \d+ ms/, 'after N ms'))).toEqual([
      'auth exited (exit 3) after N ms; restart 1 of 4 in 40 ms',
      'auth exited (exit 3) after N ms; restart 2 of 4 in 80 ms',
      'auth exited (exit 3) after N ms; restart 3 of 4 in 100 ms',
      'auth exited (exit 3) after N ms; restart 4 of 4 in 100 ms',
    ]);
    expect(reason).toBe('auth crashed 5 times in a row, each within 30000 ms of starting (last: exit 3): giving up (CLUSTER_RESTART_MAX_CRASHES=4); its own log lines above say why');
    expect(lines.filter((l) => l.startsWith('auth pid'))).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(lines.filter((l) => l.startsWith('auth pid'))).toHaveLength(5);
  }, 30_000);

  it('the policy comes from the documented settings and refuses nonsense', () => {
    expect(restartPolicyOf({})).toEqual({ enabled: true, delayMs: 1000, maxDelayMs: 30_000, maxCrashes: 5, stableMs: 30_000 });
    expect(restartPolicyOf({ CLUSTER_RESTART: 'false' }).enabled).toBe(false);
    expect(() => restartPolicyOf({ CLUSTER_RESTART_MAX_CRASHES: 'many' })).toThrow("CLUSTER_RESTART_MAX_CRASHES: must be a whole number ≥ 0, got 'many'");
  });
});

describe('METRICS_PORT and readiness', () => {
  it('gives every process its own metrics port (gateway on METRICS_PORT, services on + their offset) and refuses overlaps', () => {
    const layout = clusterLayout({ ...base, PORT: '9080', SERVICE_PORT_BASE: '9100', METRICS_PORT: '9400' });
    expect(Object.fromEntries(layout.processes.map((p) => [p.name, p.metricsPort]))).toEqual({
      auth: 9401, meta: 9402, data: 9403, comments: 9404, storage: 9405, integrations: 9406, hooks: 9407, realtime: 9408, gateway: 9400,
    });
    expect(clusterLayout({ ...base, METRICS_PORT: '0' }).processes.every((p) => p.metricsPort === undefined)).toBe(true);
    // replicas (CLUSTER_REPLICAS) get their own, shifted as their ports are
    const replicas = clusterLayout({ ...base, PORT: '9080', SERVICE_PORT_BASE: '9100', METRICS_PORT: '9400', CLUSTER_REPLICAS: 'data=2,hooks=3' }).processes;
    expect(replicas.filter((p) => (p.service ?? p.name) === 'data' || (p.service ?? p.name) === 'hooks').map((p) => [p.name, p.port, p.metricsPort]))
      .toEqual([['data', 9103, 9403], ['data-2', 9113, 9413], ['hooks', 9107, 9407], ['hooks-2', 9117, 9417], ['hooks-3', 9127, 9427]]);
    expect(new Set(replicas.map((p) => p.metricsPort)).size).toBe(replicas.length);
    expect(() => clusterLayout({ ...base, PORT: '9080', SERVICE_PORT_BASE: '9100', METRICS_PORT: '9099' }))
      .toThrow('METRICS_PORT: meta metrics and auth would both listen on 9101');
  });

  it('checks the metrics ports before starting anything, then logs one "cluster ready" line with the gateway and docs URLs', async () => {
    const [gw, auth, gwMetrics, authMetrics] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const blocker = net.createServer().listen(authMetrics, '0.0.0.0');
    await new Promise((r) => blocker.once('listening', r));
    const layout: ClusterLayout = {
      processes: [{ name: 'auth', port: auth, setting: 'AUTH_PORT', metricsPort: authMetrics }, { name: 'gateway', port: gw, setting: 'PORT', metricsPort: gwMetrics }],
      env: { DATA_DIR: dataDir },
    };
    // a child serving /healthz on PORT and reporting its METRICS_PORT
    const serve = 'require("http").createServer((q, s) => s.end(process.env.METRICS_PORT)).listen(Number(process.env.PORT), "127.0.0.1")';
    const lines: string[] = [];
    const blocked = new ClusterLauncher({ layout, cwd: dataDir, log: (l) => lines.push(l), commandOf: () => [process.execPath, '-e', serve] });
    await expect(blocked.start()).rejects.toThrow(`Port ${authMetrics} is already in use by another process: stop it or set METRICS_PORT to a free port`);
    expect(lines).toEqual([]);
    await new Promise((r) => blocker.close(r));

    const launcher = new ClusterLauncher({ layout, cwd: dataDir, log: (l) => lines.push(l), commandOf: () => [process.execPath, '-e', serve] });
    try {
      await launcher.start();
      expect(await launcher.waitReady(20_000)).toBe(true);
      expect(await (await fetch(`http://127.0.0.1:${auth}/healthz`)).text()).toBe(String(authMetrics));
      expect(lines.filter((l) => l.startsWith('cluster ready'))).toEqual([
        `cluster ready: 2 processes; gateway http://localhost:${gw}, API docs http://localhost:${gw}/api/docs, metrics on :${authMetrics}, :${gwMetrics}`,
      ]);
    } finally {
      await launcher.stop('SIGKILL');
    }
  }, 30_000);
});
