import { ConfigError } from '@tabula/config';
import { persistentSecret } from './secrets';
import { ENCRYPTION_KEY_FILE } from './at-rest-keys';

/** The services of `start:cluster`, in start order, with their offset from SERVICE_PORT_BASE. */
export const clusterServiceOffsets: Record<string, number> = {
  auth: 1, meta: 2, data: 3, comments: 4, storage: 5, integrations: 6, hooks: 7, realtime: 8,
};

/** One process of the local cluster: where it listens and which setting moves it. */
export interface ClusterProcess {
  /** The service, or `<service>-<n>` for its replica n >= 2 (CLUSTER_REPLICAS). */
  name: string;
  /** The service it runs (its entry); the name when absent. */
  service?: string;
  port: number;
  /** The setting to change when the port is taken. */
  setting: string;
  /** Its own metrics listener (METRICS_PORT of the child), when METRICS_PORT is set. */
  metricsPort?: number;
}

/** What `start:cluster` runs: the processes (gateway last) and the environment they share. */
export interface ClusterLayout {
  processes: ClusterProcess[];
  env: NodeJS.ProcessEnv;
}

function portSetting(value: string | undefined, name: string, problems: string[]): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    problems.push(`${name}: must be a port number (1-65535), got '${value}'`);
    return undefined;
  }
  return port;
}

function portOfUrl(value: string, name: string, problems: string[]): number | undefined {
  try {
    const url = new URL(value);
    return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  } catch {
    problems.push(`${name}: must be a URL, got '${value}'`);
    return undefined;
  }
}

/** Where one service listens: <NAME>_PORT, else the port of <NAME>_SERVICE_URL, else SERVICE_PORT_BASE + offset. */
function serviceProcess(name: string, base: number, env: NodeJS.ProcessEnv, problems: string[]): ClusterProcess {
  const upper = name.toUpperCase();
  const urlName = `${upper}_SERVICE_URL`;
  const explicit = portSetting(env[`${upper}_PORT`], `${upper}_PORT`, problems);
  const fromUrl = explicit === undefined && env[urlName] ? portOfUrl(env[urlName] as string, urlName, problems) : undefined;
  const port = explicit ?? fromUrl ?? base + (clusterServiceOffsets[name] as number);
  return { name, port, setting: fromUrl !== undefined ? urlName : `${upper}_PORT or SERVICE_PORT_BASE` };
}

/** Ports between one replica of a service and the next (replica n listens on the first's port + 10 (n-1)). */
export const REPLICA_PORT_STRIDE = 10;

/** CLUSTER_REPLICAS, e.g. `data=2,hooks=2`: replicas per service (1 when unlisted). */
function replicaCounts(value: string | undefined, problems: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of (value ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const [name, raw] = entry.split('=').map((part) => part.trim());
    const count = Number(raw);
    if (!name || !(name in clusterServiceOffsets)) problems.push(`CLUSTER_REPLICAS: unknown service '${name}' (one of ${Object.keys(clusterServiceOffsets).join(', ')})`);
    else if (!Number.isInteger(count) || count < 1 || count > 9) problems.push(`CLUSTER_REPLICAS: ${name} must have 1 to 9 replicas, got '${raw}'`);
    else counts.set(name, count);
  }
  return counts;
}

/** The processes of one service: its first replica, then `<name>-2`... on ports REPLICA_PORT_STRIDE apart. */
function replicasOf(first: ClusterProcess, count: number): ClusterProcess[] {
  return Array.from({ length: count }, (_, i) => (i === 0
    ? first
    : { name: `${first.name}-${i + 1}`, service: first.name, port: first.port + REPLICA_PORT_STRIDE * i, setting: `${first.setting} (replica ${i + 1} of CLUSTER_REPLICAS)` }));
}

/**
 * The local cluster's layout from the environment. Service ports come from
 * `<NAME>_PORT` or `SERVICE_PORT_BASE` (default 8100: auth 8101 … hooks 8107, realtime 8108);
 * `CLUSTER_REPLICAS=data=2,hooks=2` runs more replicas of a service (replica n
 * on the first's port + 10 (n-1)), all listed in its `<NAME>_SERVICE_URL`, so
 * the gateway and other services call them in turn and they share consumer groups;
 * a `<NAME>_SERVICE_URL` that is set is kept (the service listens on its port);
 * otherwise it is derived. `SVC_INTERNAL_SECRET`/`SVC_JWT_SECRET`/`SVC_ENCRYPTION_KEYS`,
 * when unset, are generated once and kept under DATA_DIR (the files standalone
 * uses), so a restart keeps users signed in and sealed values readable. Throws
 * with every problem listed.
 */
export function clusterLayout(input: NodeJS.ProcessEnv): ClusterLayout {
  const env: NodeJS.ProcessEnv = { ...input };
  const problems: string[] = [];
  if (!env.DATABASE_URL) problems.push('DATABASE_URL: required (e.g. postgres://postgres@127.0.0.1:5432/tabula)');
  env.EVENT_BUS = env.EVENT_BUS ?? 'redis';
  if (env.EVENT_BUS === 'redis' && !env.REDIS_URL) problems.push('REDIS_URL: required with EVENT_BUS=redis');
  const base = portSetting(env.SERVICE_PORT_BASE, 'SERVICE_PORT_BASE', problems) ?? 8100;
  const serviceCount = Object.keys(clusterServiceOffsets).length;
  if (base + serviceCount > 65535) problems.push(`SERVICE_PORT_BASE: ${base} leaves no room for ${serviceCount} service ports`);
  const replicas = replicaCounts(env.CLUSTER_REPLICAS, problems);
  for (const [name, count] of replicas) {
    if (count > 1 && env[`${name.toUpperCase()}_SERVICE_URL`]) problems.push(`CLUSTER_REPLICAS: ${name} has replicas; set ${name.toUpperCase()}_PORT instead of ${name.toUpperCase()}_SERVICE_URL`);
  }
  const processes = Object.keys(clusterServiceOffsets)
    .flatMap((name) => replicasOf(serviceProcess(name, base, env, problems), replicas.get(name) ?? 1));
  processes.push({ name: 'gateway', port: portSetting(env.PORT, 'PORT', problems) ?? 8080, setting: 'PORT' });
  // METRICS_PORT: one metrics listener per process, the gateway on it, each service on it + its offset
  // (handing every child the same port crashed all but one of them, restarted forever).
  const metricsBase = env.METRICS_PORT?.trim() === '0' ? 0 : portSetting(env.METRICS_PORT, 'METRICS_PORT', problems);
  if (metricsBase !== undefined && metricsBase !== 0) {
    if (metricsBase + serviceCount > 65535) problems.push(`METRICS_PORT: ${metricsBase} leaves no room for the ${serviceCount} services' metrics ports`);
    for (const process of processes) {
      if (process.name === 'gateway') { process.metricsPort = metricsBase; continue; }
      const service = process.service ?? process.name;
      const first = processes.find((p) => p.name === service) as ClusterProcess;
      // a replica's metrics port is its service's, shifted as its port is (REPLICA_PORT_STRIDE apart)
      process.metricsPort = metricsBase + (clusterServiceOffsets[service] as number) + (process.port - first.port);
      if (process.metricsPort > 65535) problems.push(`METRICS_PORT: ${metricsBase} leaves no room for ${process.name}'s metrics port`);
    }
  }
  const seen = new Map<number, string>();
  const claim = (port: number, who: string, setting: string) => {
    const other = seen.get(port);
    if (other) problems.push(`${setting}: ${who} and ${other} would both listen on ${port}`);
    seen.set(port, who);
  };
  for (const process of processes) claim(process.port, process.name, process.setting);
  for (const process of processes) if (process.metricsPort !== undefined) claim(process.metricsPort, `${process.name} metrics`, 'METRICS_PORT');
  if (problems.length) throw new ConfigError(problems);
  for (const name of Object.keys(clusterServiceOffsets)) {
    const urlName = `${name.toUpperCase()}_SERVICE_URL`;
    const ports = processes.filter((p) => (p.service ?? p.name) === name).map((p) => p.port);
    if (!env[urlName]) env[urlName] = ports.map((port) => `http://127.0.0.1:${port}`).join(',');
  }
  const dataDir = env.DATA_DIR ?? './data';
  env.SVC_INTERNAL_SECRET = env.SVC_INTERNAL_SECRET || persistentSecret(dataDir, 'internal-secret');
  env.SVC_JWT_SECRET = env.SVC_JWT_SECRET || persistentSecret(dataDir, 'jwt-secret');
  if (!env.SVC_ENCRYPTION_KEYS && !env.SVC_ENCRYPTION_KEYS_FILE) env.SVC_ENCRYPTION_KEYS = persistentSecret(dataDir, ENCRYPTION_KEY_FILE);
  env.TABULA_MODE = 'cluster';
  env.TABULA_LAUNCHER = 'cluster';
  return { processes, env };
}
