import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { TestApi, col, createTestDatabase, describeWithBackend, entryArgs, freePort, freePortBase, waitHealthy, type TestDatabase, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, WsClient } from './realtime.helpers';

/**
 * The per-principal stream cap across replicas (`CLUSTER_REPLICAS=realtime=2`
 * on the real launcher, SVC_FEED_MAX_STREAMS_PER_PRINCIPAL at its default 20):
 * 20 streams spread by the gateway over both replicas (the 20th raced by 8
 * requests at once: one admitted); the 21st is refused
 * whichever replica it reaches (SSE 429, WebSocket subscribe 429); closing one
 * lets one in; a SIGKILLed replica's streams stop counting once their leases
 * (3 heartbeats) run out, and no sooner does the user get more than 20.
 */
const root = path.resolve(__dirname, '..');
const CAP = 20;

describeWithBackend('redis', 'the stream cap counts across realtime replicas (start:cluster, realtime=2)', () => {
  let database: TestDatabase;
  let launcher: ChildProcess;
  let output = '';
  let dataDir = '';
  let gateway = '';
  let api: TestApi;
  let user: TestUser;
  let table: TestTable;
  let db: Client;
  const url = (port: number) => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-rt-cap-'));
    const gatewayPort = await freePort();
    const base = await freePortBase([1, 2, 3, 4, 5, 6, 7, 8, 18]);
    gateway = url(gatewayPort);
    const env: NodeJS.ProcessEnv = {
      ...process.env, EVENT_BUS: 'redis', CLUSTER_REPLICAS: 'realtime=2',
      EVENT_TOPIC_PREFIX: path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, ''), DATA_DIR: dataDir, DATABASE_URL: database.url,
      PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
      SVC_FEED_HEARTBEAT_MS: '500', CLUSTER_RESTART_DELAY_MS: '500',
    };
    for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'SVC_FEED_MAX_STREAMS_PER_PRINCIPAL']) delete env[name];
    for (const name of ['AUTH', 'META', 'DATA', 'COMMENTS', 'STORAGE', 'INTEGRATIONS', 'HOOKS', 'REALTIME']) delete env[`${name}_SERVICE_URL`];
    launcher = spawn(process.execPath, entryArgs('scripts/start-cluster.ts'), { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout?.on('data', (chunk) => { output += chunk; });
    launcher.stderr?.on('data', (chunk) => { output += chunk; });
    try {
      await waitHealthy(`${gateway}/healthz`, 120_000);
      for (const port of [base + 8, base + 18]) await waitHealthy(`${url(port)}/readyz`, 120_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the launcher's output:\n${output.split('\n').slice(-60).join('\n')}`);
    }
    db = new Client({ connectionString: database.url });
    await db.connect();
    api = new TestApi(gateway);
    user = await api.signUp('capped');
    table = await api.baseWithTable(user, { title: 'Items', columns: [col.id(), col.text('Title')] });
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }, 60_000);

  const stream = () => `/api/v1/events/tables/${table.id}`;
  const open = () => SseClient.open(gateway, stream(), { 'xc-auth': user.token });
  /** The user's counted streams per replica (the shared count itself). */
  async function perReplica(): Promise<number[]> {
    const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM realtime.stream_leases WHERE expires_at > now() GROUP BY replica ORDER BY replica");
    return rows.map((r) => Number(r.n));
  }
  /** Opens a stream, retrying refusals (`accept`: the statuses to retry) until one opens; how many refusals it took. */
  async function openRetrying(accept: number[], attempts = 100): Promise<SseClient> {
    for (let i = 0; i < attempts; i += 1) {
      const s = await open();
      if (s.status === 200) return s;
      expect(accept).toContain(s.status);
      s.close();
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('no stream opened');
  }

  it('20 streams over both replicas; the 21st is refused on either; closing one lets one in; a killed replica\'s streams stop counting after the lease', async () => {
    const streams: SseClient[] = [];
    for (let i = 0; i < CAP - 1; i += 1) {
      const s = await open();
      expect(s.status).toBe(200);
      streams.push(s);
    }
    // the 20th, asked 8 times at once (the gateway spreads them over both replicas): exactly one is admitted
    const racing = await Promise.all(Array.from({ length: 8 }, () => open()));
    expect(racing.map((s) => s.status).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
    for (const s of racing) if (s.status === 200) streams.push(s); else s.close();
    const spread = await perReplica();
    expect(spread.length).toBe(2);
    expect(spread.reduce((a, b) => a + b, 0)).toBe(CAP);
    expect(Math.min(...spread)).toBeGreaterThan(0);

    // the 21st, several times (the gateway alternates replicas): 429 every time, on SSE and on a WebSocket
    const refusals: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const s = await open();
      refusals.push(s.status);
      if (s.status === 429) expect(JSON.parse(s.body)).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
      s.close();
    }
    expect(refusals).toEqual([429, 429, 429, 429, 429, 429]);
    const ws = await WsClient.open(gateway, '/api/v1/events/ws', { 'xc-auth': user.token });
    for (let i = 0; i < 2; i += 1) expect((await ws.subscribe({ table_id: table.id })).status).toBe(429);
    ws.close();

    // closing one frees one place (the release is asynchronous: refusals are retried), and only one
    streams.shift()!.close();
    streams.push(await openRetrying([429]));
    for (let i = 0; i < 4; i += 1) {
      const s = await open();
      expect(s.status).toBe(429);
      s.close();
    }

    // kill (SIGKILL, no goodbye) the replica holding streams; its streams end on the client's side
    const before = await perReplica();
    const pid = Number(readFileSync(path.join(dataDir, 'cluster', 'realtime.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    const ended = () => streams.filter((s) => s.ended).length;
    for (let i = 0; i < 100 && !before.includes(ended()); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(before).toContain(ended());
    const lost = streams.filter((s) => s.ended);
    const alive = streams.filter((s) => !s.ended);
    expect(lost.length).toBeGreaterThan(0);
    expect(alive.length).toBeLessThan(CAP);
    // their leases expire (3 x 500 ms): the user gets exactly as many back (refusals meanwhile: 429, or 503 while the gateway still picks the dead one)
    const reopened: SseClient[] = [];
    for (let i = 0; i < lost.length; i += 1) reopened.push(await openRetrying([429, 503, 502]));
    const after: number[] = [];
    for (let i = 0; i < 100 && after.filter((st) => st === 429).length < 4; i += 1) {
      const s = await open();
      after.push(s.status);
      s.close();
    }
    expect(after.filter((st) => st !== 503 && st !== 502)).toEqual([429, 429, 429, 429]);
    expect(await perReplica().then((n) => n.reduce((a, b) => a + b, 0))).toBe(CAP);
    for (const s of [...alive, ...reopened]) s.close();
  }, 240_000);
});
