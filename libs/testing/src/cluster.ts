import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { backendUrl, describeWithBackend } from './backends';

const root = path.resolve(__dirname, '../../..');

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

/**
 * A port base whose `base + offset` ports are all free now. Bases come from
 * 20000-31999, below Linux's ephemeral range (32768-60999): a port in that
 * range can be taken between this check and the listen by any outgoing
 * connection of the machine (a replica of start:cluster failed that way, once).
 */
export async function freePortBase(offsets: number[]): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - Math.max(...offsets)));
    const free = await Promise.all(offsets.map((offset) => portIsFree(base + offset)));
    if (free.every(Boolean)) return base;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer().once('error', () => resolve(false)).listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Polls `url` until it answers below 500. */
export async function waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy`);
}

/** Services running as separate OS processes, as in cluster mode. */
export interface TestCluster {
  gatewayUrl: string;
  serviceUrl(name: string): string;
  /** Kills one service process (SIGKILL by default) and waits for it to exit. */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a killed service again and waits until it is healthy. */
  restart(name: string): Promise<void>;
  /** The OS process id of a running service (undefined when it is not running). */
  pid(name: string): number | undefined;
  stop(): Promise<void>;
}

/** How the test cluster runs its processes. */
export interface TestClusterOptions {
  /**
   * Run the esbuild bundles dist/<service>/main.js (the default: jest's global
   * setup builds them from the current sources) instead of the sources under
   * tsx: a process starts in well under a second instead of several. `false`
   * runs the sources (outside jest, or to debug with source paths).
   */
  bundles?: boolean;
}

/** The event buses cluster mode runs on. */
export type ClusterBus = 'redis' | 'kafka';

/**
 * A cluster suite run once per bus: on Redis Streams (needs REDIS_URL) and on
 * Kafka (needs KAFKA_BROKERS, and REDIS_URL for what else the services keep
 * in Redis); each skips, saying why, without its backend. `body` passes the
 * bus to startTestCluster as `{ EVENT_BUS: bus }`.
 */
export function describeOnEachBus(name: string, body: (bus: ClusterBus) => void): void {
  describeWithBackend('redis', `${name} [Redis Streams]`, () => body('redis'));
  describeWithBackend('kafka', `${name} [Kafka]`, () => describeWithBackend('redis', 'with Redis', () => body('kafka')));
}

/**
 * Deletes a test cluster's Kafka topics (`<prefix>.*`), so a developer's broker does not collect them.
 * `bootstrap`: the brokers (default: the test broker, KAFKA_BROKERS).
 */
export async function deleteKafkaTopics(prefix: string, bootstrap = backendUrl('kafka')): Promise<void> {
  const brokers = bootstrap?.split(',').map((broker) => broker.trim());
  if (!brokers) return;
  const admin = new Kafka({ clientId: 'test-cluster', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${prefix}.`));
    if (topics.length) await admin.deleteTopics({ topics });
  } catch {
    // best effort: a leftover topic only takes space on a test broker
  } finally {
    await admin.disconnect();
  }
}

/**
 * Starts the given services and the gateway as separate processes (the
 * Kubernetes topology on one machine) against `databaseUrl` and Redis Streams
 * (or Kafka: `{ EVENT_BUS: 'kafka' }` in `env`, brokers from KAFKA_BROKERS).
 */
export async function startTestCluster(
  services: string[], databaseUrl: string, env: Record<string, string> = {}, options: TestClusterOptions = {},
): Promise<TestCluster> {
  const ports = new Map<string, number>();
  for (const name of [...services, 'gateway']) ports.set(name, await freePort());
  const base: NodeJS.ProcessEnv = {
    ...process.env, TABULA_MODE: 'cluster', DATABASE_URL: databaseUrl, EVENT_BUS: 'redis', HOST: '127.0.0.1',
    SVC_INTERNAL_SECRET: randomBytes(48).toString('base64url'), SVC_JWT_SECRET: randomBytes(48).toString('base64url'),
    SVC_ENCRYPTION_KEYS: randomBytes(32).toString('base64url'),
    // Its own streams and consumer groups: clusters of tests running in parallel on one Redis never share a group.
    EVENT_TOPIC_PREFIX: `t${randomBytes(5).toString('hex')}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', OTEL_SDK_DISABLED: 'true',
    // A killed Kafka consumer's partitions move to the restarted one after this (the default 30 s makes every crash test wait).
    KAFKA_SESSION_TIMEOUT_MS: '8000', ...env,
  };
  for (const name of services) base[`${name.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${ports.get(name)}`;
  const children = new Map<string, ChildProcess>();
  const url = (name: string) => `http://127.0.0.1:${ports.get(name)}`;
  const launch = async (name: string) => {
    const args = options.bundles !== false
      ? [path.join(root, 'dist', name, 'main.js')]
      : ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')];
    const child = spawn(process.execPath, args, {
      cwd: root, env: { ...base, PORT: String(ports.get(name)) }, stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    children.set(name, child);
    await waitHealthy(`${url(name)}/healthz`);
  };
  const exit = (child: ChildProcess, signal: NodeJS.Signals) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
  for (const name of services) await launch(name);
  await launch('gateway');
  return {
    gatewayUrl: url('gateway'),
    serviceUrl: url,
    kill: async (name, signal = 'SIGKILL') => { const child = children.get(name); if (child) await exit(child, signal); },
    restart: launch,
    pid: (name) => {
      const child = children.get(name);
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    stop: async () => {
      await Promise.all([...children.values()].map((child) => exit(child, 'SIGTERM')));
      if (base.EVENT_BUS === 'kafka') await deleteKafkaTopics(base.EVENT_TOPIC_PREFIX as string);
    },
  };
}
