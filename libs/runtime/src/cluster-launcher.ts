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
}

/**
 * The local cluster's supervisor (`npm run start:cluster`). Every child runs in
 * its own process group, so a terminal's Ctrl-C reaches only the launcher,
 * which forwards one SIGTERM to each child, waits for every child to drain
 * (bounded by SHUTDOWN_TIMEOUT_MS plus a margin, then SIGKILL) and exits 0 when
 * all stopped cleanly. Children drain and exit by themselves when the launcher
 * dies (TABULA_LAUNCHER=cluster makes them watch their parent). A child that
 * dies on its own is restarted after 1 s unless CLUSTER_RESTART=false.
 */
export class ClusterLauncher {
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;
  private readonly log: (line: string) => void;
  private readonly pidDir: string;

  constructor(private readonly options: LauncherOptions) {
    this.log = options.log ?? ((line) => console.log(`[cluster] ${line}`));
    this.pidDir = path.resolve(options.layout.env.DATA_DIR ?? './data', 'cluster');
  }

  /** Checks every port first (one line naming the setting), then starts the services and the gateway. */
  async start(): Promise<void> {
    const { processes } = this.options.layout;
    for (const { port, setting } of processes) await ensurePortFree(port, this.options.layout.env.HOST ?? '0.0.0.0', setting);
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

  private launch(proc: ClusterProcess): void {
    const [command, ...args] = this.options.commandOf(proc.service ?? proc.name);
    const child = spawn(command as string, args, {
      cwd: this.options.cwd,
      env: { ...this.options.layout.env, PORT: String(proc.port) },
      stdio: 'inherit',
      detached: true,
    });
    this.children.set(proc.name, child);
    writeFileSync(path.join(this.pidDir, `${proc.name}.pid`), String(child.pid));
    this.log(`${proc.name} pid ${child.pid} on :${proc.port}`);
    child.on('exit', (code, signal) => {
      if (this.stopping) return;
      const restart = this.options.layout.env.CLUSTER_RESTART !== 'false';
      this.log(`${proc.name} exited (${signal ?? code})${restart ? ', restarting in 1 s' : ''}`);
      if (restart) setTimeout(() => { if (!this.stopping) this.launch(proc); }, 1000);
    });
  }

  /** Forwards `signal` once to every child and resolves with true when all exited 0. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<boolean> {
    this.stopping = true;
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
export function superviseCluster(launcher: ClusterLauncher, log: (line: string) => void = (line) => console.log(`[cluster] ${line}`)): void {
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
  // Under npm, stop when npm is gone: npm passes SIGTERM only to its shell, which dies without passing it on.
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent && !firstAt) handle('SIGTERM');
  }, 500);
  timer.unref();
}
