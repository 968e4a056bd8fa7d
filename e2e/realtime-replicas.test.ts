import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { TestApi, col, createTestDatabase, deleteKafkaTopics, describeOnEachBus, entryArgs, freePort, freePortBase, waitHealthy, type TestDatabase, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, countBy } from './realtime.helpers';

/**
 * Two realtime replicas behind the gateway (`CLUSTER_REPLICAS=realtime=2` on
 * the real launcher). A client streams through the gateway while inserts
 * keep committing; the replica holding its stream is killed (SIGKILL: no
 * goodbye); the client reconnects through the gateway with Last-Event-ID, as
 * EventSource does, retrying while the gateway still picks the dead replica,
 * and resumes on the other. Every insert is counted per event id and per
 * title: none missed, none repeated. Once per bus: Redis Streams (REDIS_URL)
 * and Kafka (a real broker: KAFKA_BROKERS, e.g. from `npm run kafka:start`;
 * the suite says why it skipped without one). On Kafka the killed replica's
 * partitions of the feed log's group move to the survivor (and back when the
 * launcher restarts it) after the session timeout: offsets it had not
 * committed are delivered again, deduplicated by the event id.
 */
const root = path.resolve(__dirname, '..');
const INSERTS = 60;

/** The value of an unlabelled-by-route gauge summed over its samples. */
function gauge(text: string, name: string): number {
  return text.split('\n').filter((line) => line.startsWith(name) && !line.startsWith('#'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describeOnEachBus('the feed survives the loss of the realtime replica a client streams from (start:cluster, realtime=2)', (bus) => {
  let database: TestDatabase;
  let launcher: ChildProcess;
  let output = '';
  let dataDir = '';
  let prefix = '';
  let gateway = '';
  let base = 0;
  let api: TestApi;
  let user: TestUser;
  let table: TestTable;
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const replicas = () => [{ name: 'realtime', port: base + 8 }, { name: 'realtime-2', port: base + 18 }];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-rt-replicas-'));
    prefix = path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, '');
    const gatewayPort = await freePort();
    base = await freePortBase([1, 2, 3, 4, 5, 6, 7, 8, 18]);
    gateway = url(gatewayPort);
    const env: NodeJS.ProcessEnv = {
      ...process.env, EVENT_BUS: bus, CLUSTER_REPLICAS: 'realtime=2', KAFKA_SESSION_TIMEOUT_MS: '8000',
      EVENT_TOPIC_PREFIX: prefix, DATA_DIR: dataDir, DATABASE_URL: database.url,
      PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
      SVC_FEED_HEARTBEAT_MS: '500', CLUSTER_RESTART_DELAY_MS: '500',
    };
    for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event']) delete env[name];
    for (const name of ['AUTH', 'META', 'DATA', 'COMMENTS', 'STORAGE', 'INTEGRATIONS', 'HOOKS', 'REALTIME']) delete env[`${name}_SERVICE_URL`];
    launcher = spawn(process.execPath, entryArgs('scripts/start-cluster.ts'), { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout?.on('data', (chunk) => { output += chunk; });
    launcher.stderr?.on('data', (chunk) => { output += chunk; });
    try {
      await waitHealthy(`${gateway}/healthz`, 120_000);
      for (const r of replicas()) await waitHealthy(`${url(r.port)}/readyz`, 120_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the launcher's output:\n${output.split('\n').slice(-60).join('\n')}`);
    }
    api = new TestApi(gateway);
    user = await api.signUp(`replicas-${bus}`);
    table = await api.baseWithTable(user, { title: 'Items', columns: [col.id(), col.text('Title')] });
  }, 180_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    if (bus === 'kafka') await deleteKafkaTopics(prefix);
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }, 60_000);

  /** The replica holding the stream now: the one whose open feed subscriptions count it (exactly one). */
  async function holder(): Promise<{ name: string; port: number }> {
    const open = await Promise.all(replicas().map(async (r) => gauge(await (await fetch(`${url(r.port)}/metrics`)).text(), 'tabula_feed_subscriptions')));
    expect(open.slice().sort()).toEqual([0, 1]);
    return open[0] === 1 ? replicas()[0] : replicas()[1];
  }

  it('a client whose replica is killed resumes on the other through the gateway: every event once', async () => {
    const stream = `/api/v1/events/tables/${table.id}`;
    const first = await SseClient.open(gateway, stream, { 'xc-auth': user.token });
    expect(first.status).toBe(200);
    await first.until(() => first.pings > 0, 20_000, 'a heartbeat');
    const victim = await holder();
    let committed = 0;
    const writer = (async () => {
      for (let i = 0; i < INSERTS; i += 1) {
        await api.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${table.id}`, { token: user.token, body: { Title: `t${i}` } }, 'insert');
        committed += 1;
      }
    })();
    await first.until(() => first.events.length >= 10, 20_000, 'the first events');
    process.kill(Number(readFileSync(path.join(dataDir, 'cluster', `${victim.name}.pid`), 'utf8')), 'SIGKILL');
    await first.until(() => first.ended, 20_000, 'the stream to end with its replica');
    expect(committed).toBeLessThan(INSERTS);
    // Reconnect as EventSource does: again after `retry`, with the last id, until a replica answers 200.
    const lastId = first.events.at(-1)!.id!;
    let second: SseClient | undefined;
    const refused: number[] = [];
    for (let attempt = 0; attempt < 50 && !second; attempt += 1) {
      const tried = await SseClient.open(gateway, stream, { 'xc-auth': user.token, 'last-event-id': lastId });
      if (tried.status === 200) second = tried;
      else { refused.push(tried.status); tried.close(); await new Promise((r) => setTimeout(r, 200)); }
    }
    expect(second).toBeDefined();
    expect(refused.every((s) => s === 503)).toBe(true);
    await writer;
    // An event the killed replica's feed-log consumer had taken but not appended is taken over by the other
    // once idle for the Redis bus's claim time (30 s), or on Kafka once the group rebalances (session timeout): late, never lost.
    await second!.until(() => first.events.length + second!.events.length >= INSERTS, 90_000, 'every event');
    await new Promise((r) => setTimeout(r, 500));
    const all = [...first.events, ...second!.events];
    const byId = countBy(all.map((e) => e.id as string));
    expect([...byId.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    const titles = countBy(all.map((e) => e.data.rows[0].Title as string));
    const expected = Array.from({ length: INSERTS }, (_, i) => `t${i}`);
    expect(expected.filter((t) => titles.get(t) !== 1)).toEqual([]);
    expect(titles.size).toBe(INSERTS);
    second!.close();
  }, 240_000);
});
