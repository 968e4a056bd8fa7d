/**
 * Idle memory on Kafka (issue 30): a fresh single-node broker of its own (free
 * port, temporary data dir), its RSS once idle; then `start:cluster` on it
 * (dist/cluster/main.js, every service and the gateway), and once everything
 * answers /readyz and sat idle, the RSS of each process and the total
 * (launcher, services, broker). Reads /proc (Linux).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run kafka:memory
 *
 * IDLE_MS (default 20000): how long each stays idle before it is measured.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, freePortBase, waitHealthy } from '@tabula/testing';
// @ts-expect-error plain ESM script without types
import { bootstrapOf, brokerSettings, fetchJars, formatStorage, resolvePort, runningPid, startNode, stopNode, waitReady } from './broker.mjs';

const IDLE_MS = Number(process.env.IDLE_MS ?? 20_000);
const root = path.resolve(__dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function main(): Promise<void> {
  const kafkaDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-memory-kafka-'));
  const settings = await resolvePort(brokerSettings({ ...process.env, KAFKA_PORT: 'auto' }, { dataDir: kafkaDir, nodes: 1 }));
  fetchJars();
  formatStorage(settings);
  await startNode(settings, 1);
  await waitReady(settings);
  const brokerPid = runningPid(settings, 1) as number;
  await sleep(IDLE_MS);
  const idleBroker = rssMiB(brokerPid);
  console.log(`idle broker (${settings.heap}): RSS ${idleBroker.toFixed(0)} MiB`);

  const database = await createTestDatabase('tabula_memory');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-memory-'));
  const gatewayPort = await freePort();
  const base = await freePortBase([1, 2, 3, 4, 5, 6, 7]);
  const env: NodeJS.ProcessEnv = {
    ...process.env, EVENT_BUS: 'kafka', KAFKA_BROKERS: bootstrapOf(settings), DATA_DIR: dataDir, DATABASE_URL: database.url,
    PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
  };
  for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'METRICS_PORT', 'CLUSTER_REPLICAS']) delete env[name];
  const launcher = spawn(process.execPath, [path.join(root, 'dist', 'cluster', 'main.js')], { cwd: root, env, detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 180_000);
    for (let offset = 1; offset <= 7; offset += 1) await waitHealthy(`http://127.0.0.1:${base + offset}/readyz`, 180_000);
    await sleep(IDLE_MS);
    const pidDir = path.join(dataDir, 'cluster');
    const rows = readdirSync(pidDir).filter((f) => f.endsWith('.pid')).sort()
      .map((f) => ({ process: f.replace(/\.pid$/, ''), 'RSS MiB': Math.round(rssMiB(Number(readFileSync(path.join(pidDir, f), 'utf8')))) }));
    rows.push({ process: 'launcher', 'RSS MiB': Math.round(rssMiB(launcher.pid as number)) });
    const services = rows.reduce((sum, row) => sum + row['RSS MiB'], 0);
    const broker = Math.round(rssMiB(brokerPid));
    rows.push({ process: 'kafka broker', 'RSS MiB': broker });
    console.table(rows);
    console.log(`cluster on Kafka, idle: services + gateway + launcher ${services} MiB, broker ${broker} MiB, total ${services + broker} MiB (load ${os.loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  } finally {
    await new Promise<void>((resolve) => { launcher.once('exit', () => resolve()); launcher.kill('SIGTERM'); });
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await stopNode(settings, 1);
    rmSync(kafkaDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
