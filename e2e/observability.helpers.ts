import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, waitHealthy, entryArgs } from '@tabula/testing';

const root = path.resolve(__dirname, '..');

/** A standalone Tabula started as `npm start` does, its stdout (JSON log lines) collected. */
export interface SpawnedStandalone {
  url: string;
  metricsUrl?: string;
  /** Parsed JSON log lines so far. */
  lines(): Array<Record<string, unknown>>;
  raw(): string;
  stop(): Promise<void>;
}

/** Starts `scripts/start-standalone.ts` on free ports with `env` (DATABASE_URL of a test database expected). */
export async function spawnStandalone(env: Record<string, string>, withMetricsPort: boolean): Promise<SpawnedStandalone> {
  const port = await freePort();
  const metricsPort = withMetricsPort ? await freePort() : 0;
  const child: ChildProcess = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: String(metricsPort), EVENT_BUS: 'memory', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => { out += chunk; });
  child.stderr?.on('data', (chunk) => { out += chunk; });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`, 60_000).catch((err) => { child.kill('SIGKILL'); throw new Error(`${err}\n${out}`); });
  return {
    url,
    metricsUrl: withMetricsPort ? `http://127.0.0.1:${metricsPort}` : undefined,
    raw: () => out,
    lines: () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** The value of one sample in Prometheus text, matched by metric name and label subset; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
