import { ConfigError } from '@tabula/config';
import { persistentSecret } from './secrets';
import { ENCRYPTION_KEY_FILE } from './at-rest-keys';

/** The services of `start:cluster`, in start order, with their offset from SERVICE_PORT_BASE. */
export const clusterServiceOffsets: Record<string, number> = {
  auth: 1, meta: 2, data: 3, comments: 4, storage: 5, integrations: 6, hooks: 7,
};

/** One process of the local cluster: where it listens and which setting moves it. */
export interface ClusterProcess {
  name: string;
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

/**
 * The local cluster's layout from the environment. Service ports come from
 * `<NAME>_PORT` or `SERVICE_PORT_BASE` (default 8100: auth 8101 … hooks 8107);
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
  if (base + 7 > 65535) problems.push(`SERVICE_PORT_BASE: ${base} leaves no room for 7 service ports`);
  const processes = Object.keys(clusterServiceOffsets).map((name) => serviceProcess(name, base, env, problems));
  processes.push({ name: 'gateway', port: portSetting(env.PORT, 'PORT', problems) ?? 8080, setting: 'PORT' });
  // METRICS_PORT: one metrics listener per process, the gateway on it, each service on it + its offset
  // (handing every child the same port crashed all but one of them, restarted forever).
  const metricsBase = env.METRICS_PORT?.trim() === '0' ? 0 : portSetting(env.METRICS_PORT, 'METRICS_PORT', problems);
  if (metricsBase !== undefined && metricsBase !== 0) {
    if (metricsBase + 7 > 65535) problems.push(`METRICS_PORT: ${metricsBase} leaves no room for the 7 services' metrics ports`);
    for (const process of processes) process.metricsPort = metricsBase + (process.name === 'gateway' ? 0 : (clusterServiceOffsets[process.name] as number));
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
  for (const { name, port } of processes) {
    const urlName = `${name.toUpperCase()}_SERVICE_URL`;
    if (name !== 'gateway' && !env[urlName]) env[urlName] = `http://127.0.0.1:${port}`;
  }
  const dataDir = env.DATA_DIR ?? './data';
  env.SVC_INTERNAL_SECRET = env.SVC_INTERNAL_SECRET || persistentSecret(dataDir, 'internal-secret');
  env.SVC_JWT_SECRET = env.SVC_JWT_SECRET || persistentSecret(dataDir, 'jwt-secret');
  if (!env.SVC_ENCRYPTION_KEYS && !env.SVC_ENCRYPTION_KEYS_FILE) env.SVC_ENCRYPTION_KEYS = persistentSecret(dataDir, ENCRYPTION_KEY_FILE);
  env.TABULA_MODE = 'cluster';
  env.TABULA_LAUNCHER = 'cluster';
  return { processes, env };
}
