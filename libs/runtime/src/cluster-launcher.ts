import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClusterLayout, ClusterProcess } from './cluster-layout';
import { ensurePortFree } from './port-check';

export interface LauncherOptions {
  layout: ClusterLayout;
  /** The command (argv) that runs one service's process entry (every replica of a service runs the same). */
  commandOf(name: string): string[];
  cwd: string;
  log?: (line: string) => void;
  /** Called once when a service keeps crashing and the launcher gives up on it (the cluster should stop). */
  onGiveUp?: (reason: string) => void;
}

/** Restart policy of `start:cluster` (CLUSTER_RESTART_* settings). */
export interface RestartPolicy {
  enabled: boolean;
  /** First delay; doubled after each crash in a row. */
  delayMs: number;
  maxDelayMs: number;
  /** Crashes in a row (each within `stableMs` of its start) after which the launcher gives up. */
  maxCrashes: number;
  /** A process that ran this long before exiting was not crash-looping: its count starts over. */
  stableMs: number;
}

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: must be a whole number ≥ 0, got '${raw}'`);
  return n;
}

/** The restart policy from the environment (documented in docs/cluster.md). */
export function restartPolicyOf(env: NodeJS.ProcessEnv): RestartPolicy {
  return {
    enabled: env.CLUSTER_RESTART !== 'false',
    delayMs: intSetting(env, 'CLUSTER_RESTART_DELAY_MS', 1000),
    maxDelayMs: intSetting(env, 'CLUSTER_RESTART_MAX_DELAY_MS', 30_000),
    maxCrashes: intSetting(env, 'CLUSTER_RESTART_MAX_CRASHES', 5),
    stableMs: intSetting(env, 'CLUSTER_RESTART_STABLE_MS', 30_000),
  };
}

/**
 * The local cluster's supervisor (`npm run start:cluster`). Every child runs in
 * its own process group, so a terminal's Ctrl-C reaches only the launcher,
 * which forwards one SIGTERM to each child, waits for every child to drain
 * (bounded by SHUTDOWN_TIMEOUT_MS plus a margin, then SIGKILL) and exits 0 when
 * all stopped cleanly. Children drain and exit by themselves when the launcher
 * dies (TABULA_LAUNCHER=cluster makes them watch their parent). A child that
 * dies on its own is restarted with exponential backoff (CLUSTER_RESTART_DELAY_MS,
 * doubled per crash in a row up to CLUSTER_RESTART_MAX_DELAY_MS); after
 * CLUSTER_RESTART_MAX_CRASHES crashes in a row, each within CLUSTER_RESTART_STABLE_MS
 * of its start, the launcher gives up saying why (onGiveUp). CLUSTER_RESTART=false: no restarts.
 */
export class ClusterLauncher {
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;
  private readonly log: (line: string) => void;
  private readonly pidDir: string;
  private readonly policy: RestartPolicy;
  /** Crashes in a row per service. */
  private readonly crashes = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private gaveUp = false;

  constructor(private readonly options: LauncherOptions) {
    this.log = options.log ?? ((line) => console.log(`[cluster] ${line}`));
    this.pidDir = path.resolve(options.layout.env.DATA_DIR ?? './data', 'cluster');
    this.policy = restartPolicyOf(options.layout.env);
  }

  /** True once stop() began or the launcher gave up. */
  get isStopping(): boolean { return this.stopping || this.gaveUp; }

  /** Checks every port first, metrics ports included (one line naming the setting), then starts the services and the gateway. */
  async start(): Promise<void> {
    const { processes } = this.options.layout;
    const host = this.options.layout.env.HOST ?? '0.0.0.0';
    for (const { port, setting, metricsPort } of processes) {
      await ensurePortFree(port, host, setting);
      if (metricsPort !== undefined) await ensurePortFree(metricsPort, host, 'METRICS_PORT');
    }
    mkdirSync(this.pidDir, { recursive: true });
    for (const process of processes) if (!process.service) this.launch(process);
    // Further replicas of a service start once its first one answers: the first runs the migrations, which two would race on.
    for (const replica of processes.filter((p) => p.service)) {
      const first = processes.find((p) => p.name === replica.service) as ClusterProcess;
      void this.whenHealthy(first.port).then(() => { if (!this.stopping) this.launch(replica); });
    }
  }

  private async whenHealthy(port: number): Promise<void> {
    const host = this.options.layout.env.HOST && this.options.layout.env.HOST !== '0.0.0.0' ? this.options.layout.env.HOST : '127.0.0.1';
    while (!this.stopping) {
      if (await fetch(`http://${host}:${port}/healthz`).then((res) => res.ok, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Resolves once every process answers `/healthz` on its port, then logs one
   * "cluster ready" line with the gateway and API docs URLs; false if `timeoutMs` passed first.
   */
  async waitReady(timeoutMs = 120_000): Promise<boolean> {
    const { processes } = this.options.layout;
    const gateway = processes.find((p) => p.name === 'gateway');
    const end = Date.now() + timeoutMs;
    const healthy = async (port: number) => {
      try { return (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).ok; } catch { return false; }
    };
    while (!this.stopping && Date.now() < end) {
      if ((await Promise.all(processes.map((p) => healthy(p.port)))).every(Boolean)) {
        const url = `http://localhost:${gateway?.port ?? 8080}`;
        const metrics = gateway?.metricsPort !== undefined ? `, metrics on :${processes.map((p) => p.metricsPort).join(', :')}` : '';
        this.log(`cluster ready: ${processes.length} processes; gateway ${url}, API docs ${url}/api/docs${metrics}`);
        return true;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }

  private launch(proc: ClusterProcess): void {
    const [command, ...args] = this.options.commandOf(proc.service ?? proc.name);
    const startedAt = Date.now();
    const child = spawn(command as string, args, {
      cwd: this.options.cwd,
      env: { ...this.options.layout.env, PORT: String(proc.port), METRICS_PORT: String(proc.metricsPort ?? 0) },
      stdio: 'inherit',
      detached: true,
    });
    this.children.set(proc.name, child);
    writeFileSync(path.join(this.pidDir, `${proc.name}.pid`), String(child.pid));
    this.log(`${proc.name} pid ${child.pid} on :${proc.port}${proc.metricsPort !== undefined ? ` (metrics :${proc.metricsPort})` : ''}`);
    child.on('exit', (code, signal) => {
      if (this.stopping || this.gaveUp) return;
      const how = signal ?? `exit ${code}`;
      if (!this.policy.enabled) { this.log(`${proc.name} exited (${how}); not restarted (CLUSTER_RESTART=false)`); return; }
      const ranMs = Date.now() - startedAt;
      const inARow = ranMs >= this.policy.stableMs ? 1 : (this.crashes.get(proc.name) ?? 0) + 1;
      this.crashes.set(proc.name, inARow);
      if (inARow > this.policy.maxCrashes) {
        this.gaveUp = true;
        const reason = `${proc.name} crashed ${inARow} times in a row, each within ${this.policy.stableMs} ms of starting (last: ${how}): ` +
          `giving up (CLUSTER_RESTART_MAX_CRASHES=${this.policy.maxCrashes}); its own log lines above say why`;
        this.log(reason);
        this.options.onGiveUp?.(reason);
        return;
      }
      const delay = Math.min(this.policy.maxDelayMs, this.policy.delayMs * 2 ** (inARow - 1));
      this.log(`${proc.name} exited (${how}) after ${ranMs} ms; restart ${inARow} of ${this.policy.maxCrashes} in ${delay} ms`);
      const timer = setTimeout(() => { this.timers.delete(timer); if (!this.stopping) this.launch(proc); }, delay);
      this.timers.add(timer);
    });
  }

  /** Forwards `signal` once to every child and resolves with true when all exited 0. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<boolean> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const graceMs = Number(this.options.layout.env.SHUTDOWN_TIMEOUT_MS ?? 25_000) + 10_000;
    const results = await Promise.all([...this.children.entries()].map(([name, child]) => this.stopChild(name, child, signal, graceMs)));
    rmSync(this.pidDir, { recursive: true, force: true });
    return results.every(Boolean);
  }

  private stopChild(name: string, child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode === 0);
      const timer = setTimeout(() => { this.log(`${name} did not stop in ${graceMs} ms: killing it`); child.kill('SIGKILL'); }, graceMs);
      child.once('exit', (code, sig) => {
        clearTimeout(timer);
        this.log(`${name} stopped (${sig ?? code})`);
        resolve(code === 0);
      });
      child.kill(signal);
    });
  }

  /** Kills every child at once (a second Ctrl-C). */
  kill(): void {
    for (const child of this.children.values()) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Wires the launcher to SIGINT/SIGTERM/SIGHUP and to its parent's death: one drain; a later second signal kills. */
export function superviseCluster(launcher: ClusterLauncher, log: (line: string) => void = (line) => console.log(`[cluster] ${line}`)): { giveUp(reason: string): void } {
  let firstAt = 0;
  const handle = (signal: NodeJS.Signals) => {
    if (firstAt) {
      if (Date.now() - firstAt < 1000) return;
      log(`${signal} again: killing every service`);
      launcher.kill();
      process.exit(1);
    }
    firstAt = Date.now();
    log(`${signal}: stopping every service`);
    void launcher.stop('SIGTERM').then((clean) => {
      log(clean ? 'stopped' : 'stopped (a service did not stop cleanly)');
      process.exit(clean ? 0 : 1);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, handle);
  /** A service crash-loops: stop the others and exit 1, the reason as the last line. */
  const giveUp = (reason: string) => {
    if (firstAt) return;
    firstAt = Date.now();
    void launcher.stop('SIGTERM').then(() => {
      log(`stopped: ${reason}`);
      process.exit(1);
    });
  };
  // Under npm, stop when npm is gone: npm passes SIGTERM only to its shell, which dies without passing it on.
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid;
    const timer = setInterval(() => {
      if (process.ppid !== parent && !firstAt) handle('SIGTERM');
    }, 500);
    timer.unref();
  }
  return { giveUp };
}
