// The local Apache Kafka broker (KRaft, no ZooKeeper, no container): fetches
// the pinned jars with Maven (pom.xml beside this file, into .cache/lib, once),
// formats each node's storage and runs combined controller+broker nodes on
// 127.0.0.1 as detached JVMs. Used by `npm run kafka:start|stop` (kafka.mjs),
// .ci/run and the fault scripts (fault-*.ts), which stop and kill single nodes.
//
// Layout of a data dir (KAFKA_DATA_DIR, default ./data/kafka):
//   cluster.json            nodes, base port, cluster id
//   node-<id>/server.properties, node-<id>/logs (the log dirs), node-<id>/broker.log, node-<id>/broker.pid
// Ports: node i (1-based) listens on base + 2(i-1) for clients, the next port for the controller quorum.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const cacheDir = path.join(here, '.cache');
const libDir = path.join(cacheDir, 'lib');
const require = createRequire(import.meta.url);

/** Settings from the environment (documented in docs/kafka.md). */
export function brokerSettings(env = process.env, overrides = {}) {
  const nodes = Number(overrides.nodes ?? env.KAFKA_NODES ?? 1);
  const rawPort = String(overrides.port ?? env.KAFKA_PORT ?? 9092);
  const port = rawPort === 'auto' ? 'auto' : Number(rawPort);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 5) throw new Error(`kafka: --nodes must be 1..5, got ${nodes}`);
  if (port !== 'auto' && (!Number.isInteger(port) || port < 1024 || port > 65000)) throw new Error(`kafka: KAFKA_PORT must be a port or auto, got ${rawPort}`);
  return {
    nodes,
    port,
    dataDir: path.resolve(overrides.dataDir ?? env.KAFKA_DATA_DIR ?? path.join(root, 'data', 'kafka')),
    heap: env.KAFKA_HEAP_OPTS ?? '-Xms128m -Xmx512m',
    java: env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : 'java',
    startTimeoutMs: Number(env.KAFKA_START_TIMEOUT_S ?? 120) * 1000,
  };
}

/**
 * KAFKA_PORT=auto: the port the data dir was started on before, else a random
 * base whose 2 x nodes ports are all free (CI, where 9092 may be taken).
 */
export async function resolvePort(settings) {
  if (settings.port !== 'auto') return settings;
  const previous = readCluster(settings);
  if (previous && previous.nodes === settings.nodes) return { ...settings, port: previous.port };
  for (;;) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 15_000);
    const ports = Array.from({ length: 2 * settings.nodes }, (_, i) => port + i);
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return { ...settings, port };
  }
}

/** Client address of node `id` (1-based). */
export function nodePort(settings, id) {
  return settings.port + 2 * (id - 1);
}

/** `127.0.0.1:9092,...`: what KAFKA_BROKERS is set to. */
export function bootstrapOf(settings) {
  return Array.from({ length: settings.nodes }, (_, i) => `127.0.0.1:${nodePort(settings, i + 1)}`).join(',');
}

/**
 * Copies the broker's jars into .cache/lib unless the pom has not changed since
 * the last copy. Returns the milliseconds spent (0 when cached).
 */
export function fetchJars() {
  const pom = readFileSync(path.join(here, 'pom.xml'));
  const stamp = createHash('sha256').update(pom).digest('hex');
  const stampFile = path.join(cacheDir, 'lib.sha256');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && existsSync(libDir)) return 0;
  const started = Date.now();
  rmSync(libDir, { recursive: true, force: true });
  console.log('kafka: fetching the broker with Maven (scripts/kafka/pom.xml) ...');
  execFileSync('mvn', ['-q', '-B', '-Dstyle.color=never', '-f', path.join(here, 'pom.xml'), 'dependency:copy-dependencies'], { stdio: 'inherit' });
  writeFileSync(stampFile, stamp);
  return Date.now() - started;
}

function nodeDir(settings, id) {
  return path.join(settings.dataDir, `node-${id}`);
}

function serverProperties(settings, id) {
  const voters = Array.from({ length: settings.nodes }, (_, i) => `${i + 1}@127.0.0.1:${nodePort(settings, i + 1) + 1}`).join(',');
  const port = nodePort(settings, id);
  const internalRf = Math.min(3, settings.nodes);
  return [
    'process.roles=broker,controller',
    `node.id=${id}`,
    `controller.quorum.voters=${voters}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${port + 1}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${path.join(nodeDir(settings, id), 'logs')}`,
    // Topics are created by the services (or a provisioning step) with their settings, never on first use.
    'auto.create.topics.enable=false',
    'num.partitions=1',
    `offsets.topic.replication.factor=${internalRf}`,
    'offsets.topic.num.partitions=10',
    `transaction.state.log.replication.factor=${internalRf}`,
    `transaction.state.log.min.isr=${Math.min(2, internalRf)}`,
    `share.coordinator.state.topic.replication.factor=${internalRf}`,
    `share.coordinator.state.topic.min.isr=${Math.min(2, internalRf)}`,
    // A test broker: groups form at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms=0',
    'log.retention.hours=24',
    'log.segment.bytes=67108864',
    'num.network.threads=2',
    'num.io.threads=4',
    '',
  ].join('\n');
}

/**
 * A KRaft cluster id: 16 random bytes in base64url, as Kafka's own
 * Uuid.randomUuid makes it, never starting with `-` (the storage tool would
 * take `-t -Xyz…` for an option: one start in 64 failed so).
 */
export function newClusterId() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function clusterFile(settings) {
  return path.join(settings.dataDir, 'cluster.json');
}

function readCluster(settings) {
  try {
    return JSON.parse(readFileSync(clusterFile(settings), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Writes each node's configuration and formats its storage (once: a data dir
 * formatted for the same shape is reused, so topics and offsets survive a restart).
 */
export function formatStorage(settings) {
  mkdirSync(settings.dataDir, { recursive: true });
  const previous = readCluster(settings);
  const sameShape = previous && previous.nodes === settings.nodes && previous.port === settings.port;
  if (previous && !sameShape) {
    console.log(`kafka: ${settings.dataDir} held a ${previous.nodes}-node cluster on ${previous.port}; formatting it anew`);
    for (const name of readdirSync(settings.dataDir)) if (/^node-\d+$/.test(name)) rmSync(path.join(settings.dataDir, name), { recursive: true, force: true });
  }
  const cluster = sameShape ? previous : { nodes: settings.nodes, port: settings.port, clusterId: newClusterId() };
  writeFileSync(clusterFile(settings), JSON.stringify(cluster, null, 2) + '\n');
  for (let id = 1; id <= settings.nodes; id++) {
    const dir = nodeDir(settings, id);
    mkdirSync(dir, { recursive: true });
    const config = path.join(dir, 'server.properties');
    writeFileSync(config, serverProperties(settings, id));
    if (existsSync(path.join(dir, 'logs', 'meta.properties'))) continue;
    execFileSync(settings.java, [...javaArgs(settings, 'storage'), 'kafka.tools.StorageTool', 'format', '-t', cluster.clusterId, '-c', config, '--ignore-formatted'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }
}

function javaArgs(settings, kind) {
  const base = [`-Dlog4j2.configurationFile=${path.join(here, 'log4j2.properties')}`, '-Djava.awt.headless=true', '-cp', `${libDir}/*`];
  if (kind === 'storage') return ['-Xmx256m', ...base];
  return [...settings.heap.split(/\s+/).filter(Boolean), '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', ...base];
}

/** The pid of node `id` if that JVM is running (checked against its command line, so a reused pid is not taken for it). */
export function runningPid(settings, id) {
  const pidFile = path.join(nodeDir(settings, id), 'broker.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const status = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    if (status !== 'Z' && cmdline.includes(path.join(nodeDir(settings, id), 'server.properties'))) return pid;
  } catch {
    // not running
  }
  return undefined;
}

function portFree(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });
}

/** Starts node `id` unless it runs already; resolves to its pid. */
export async function startNode(settings, id) {
  const running = runningPid(settings, id);
  if (running) return running;
  const port = nodePort(settings, id);
  for (const p of [port, port + 1]) {
    if (!(await portFree(p))) throw new Error(`kafka: port ${p} is taken by another process (set KAFKA_PORT)`);
  }
  const dir = nodeDir(settings, id);
  const log = openSync(path.join(dir, 'broker.log'), 'a');
  const child = spawn(settings.java, [...javaArgs(settings, 'broker'), 'kafka.Kafka', path.join(dir, 'server.properties')], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  writeFileSync(path.join(dir, 'broker.pid'), `${child.pid}\n`);
  return child.pid;
}

/** Stops node `id`: SIGTERM (controlled shutdown), SIGKILL after `graceMs`. `signal: 'SIGKILL'` kills at once (fault runs). */
export async function stopNode(settings, id, { signal = 'SIGTERM', graceMs = 30_000 } = {}) {
  const pid = runningPid(settings, id);
  if (!pid) return false;
  process.kill(pid, signal);
  const deadline = Date.now() + graceMs;
  while (runningPid(settings, id)) {
    if (Date.now() > deadline) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}

/** Last lines of a node's log, for failure messages. */
export function logTail(settings, id, lines = 30) {
  try {
    return readFileSync(path.join(nodeDir(settings, id), 'broker.log'), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Resolves once every node is a live broker of the cluster, as the admin API
 * reports it (kafkajs describeCluster), and a metadata request for a topic
 * works. Throws with the log tail when a node dies or time runs out.
 */
export async function waitReady(settings, ids = Array.from({ length: settings.nodes }, (_, i) => i + 1)) {
  const { Kafka, logLevel } = require('kafkajs');
  const deadline = Date.now() + settings.startTimeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    for (const id of ids) {
      if (!runningPid(settings, id)) throw new Error(`kafka: node ${id} exited while starting:\n${logTail(settings, id)}`);
    }
    const admin = new Kafka({ clientId: 'kafka-start', brokers: ids.map((id) => `127.0.0.1:${nodePort(settings, id)}`), logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length >= ids.length) return cluster;
      lastError = new Error(`${cluster.brokers.length} of ${ids.length} brokers registered`);
    } catch (error) {
      lastError = error;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`kafka: not ready after ${settings.startTimeoutMs / 1000} s (${lastError?.message}):\n${logTail(settings, ids[0])}`);
}

/** Every node of the data dir that runs now (whatever shape it was started with). */
export function runningNodes(settings) {
  const cluster = readCluster(settings);
  if (!cluster) return [];
  const shaped = { ...settings, nodes: cluster.nodes, port: cluster.port };
  return Array.from({ length: cluster.nodes }, (_, i) => i + 1)
    .map((id) => ({ id, pid: runningPid(shaped, id), port: nodePort(shaped, id) }))
    .filter((node) => node.pid);
}

/** The settings the data dir was started with (stop and status need no --nodes). */
export function recordedSettings(settings) {
  const cluster = readCluster(settings);
  return cluster ? { ...settings, nodes: cluster.nodes, port: cluster.port } : settings;
}
