import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '@tabula/config';
import { loadSettings } from '@tabula/runtime';
import { clusterPorts } from './services';
import { serviceConfigSchemas } from './service-configs';

/**
 * `npm run start:cluster`: the Kubernetes topology on one machine — every
 * service in its own OS process on its own port, the gateway in front on PORT.
 * Needs DATABASE_URL and REDIS_URL (EVENT_BUS defaults to redis; kafka with
 * KAFKA_BROKERS). A child that dies is restarted after 1 s, as a Deployment would
 * (CLUSTER_RESTART=false turns that off). Pids are written to DATA_DIR/cluster.
 */
const root = path.resolve(__dirname, '..');
const env = { ...process.env };
const problems: string[] = [];
if (!env.DATABASE_URL) problems.push('DATABASE_URL is required (e.g. postgres://postgres@127.0.0.1:5432/tabula)');
env.EVENT_BUS = env.EVENT_BUS ?? 'redis';
if (env.EVENT_BUS === 'redis' && !env.REDIS_URL) problems.push('REDIS_URL is required with EVENT_BUS=redis');
// Local convenience only: a real cluster gets these from its Secret.
env.SVC_INTERNAL_SECRET = env.SVC_INTERNAL_SECRET ?? randomBytes(48).toString('base64url');
env.SVC_JWT_SECRET = env.SVC_JWT_SECRET ?? randomBytes(48).toString('base64url');
env.TABULA_MODE = 'cluster';
for (const [name, port] of Object.entries(clusterPorts)) env[`${name.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${port}`;
// Every setting of every service, checked once here: one message instead of eight children failing (and restarting).
try {
  loadSettings(serviceConfigSchemas, env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  problems.push(...err.problems.filter((p) => !/^(DATABASE_URL|REDIS_URL): required/.test(p)));
}
if (problems.length) {
  console.error(`start:cluster: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
const pidDir = path.resolve(env.DATA_DIR ?? './data', 'cluster');
mkdirSync(pidDir, { recursive: true });
const restart = env.CLUSTER_RESTART !== 'false';
const children = new Map<string, ChildProcess>();
let stopping = false;

function launch(name: string, port: number): void {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')], {
    cwd: root, env: { ...env, PORT: String(port) }, stdio: 'inherit',
  });
  children.set(name, child);
  writeFileSync(path.join(pidDir, `${name}.pid`), String(child.pid));
   
  console.log(`[cluster] ${name} pid ${child.pid} on :${port}`);
  child.on('exit', (code, signal) => {
    if (stopping) return;
     
    console.log(`[cluster] ${name} exited (${signal ?? code})${restart ? ', restarting in 1 s' : ''}`);
    if (restart) setTimeout(() => { if (!stopping) launch(name, port); }, 1000);
  });
}

for (const [name, port] of Object.entries(clusterPorts)) launch(name, port);
launch('gateway', Number(env.PORT ?? 8080));

function shutdown(): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  const timer = setTimeout(() => process.exit(0), 15_000);
  timer.unref();
  let left = children.size;
  for (const child of children.values()) child.once('exit', () => { left -= 1; if (left === 0) process.exit(0); });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
