import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../libs/db/src/embedded-postgres';
import { freePort } from '@tabula/testing';
import { createTestPgDir, removeStaleTestPg } from '../../libs/testing/src/embedded-test-pg';

/** A backend the fault suite owns and may crash: never the machine's shared PostgreSQL or Redis. */
export interface PrivateBackend {
  url: string;
  /** Crashes it (PostgreSQL: immediate shutdown, no checkpoint; Redis: SIGKILL) and waits until it is gone. */
  crash(): Promise<void>;
  /** Starts it again on the same port with the same data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/**
 * A PostgreSQL of its own (the embedded-postgres binaries; as root it runs as
 * the `postgres` user) in a temp folder marked as this run's, so a killed run's
 * leftovers are removed by the next one. `crash` is SIGQUIT to the postmaster:
 * PostgreSQL's immediate shutdown, which skips the checkpoint, so the restart
 * goes through WAL crash recovery as after a power loss of the server process.
 */
export async function startPrivatePostgres(): Promise<PrivateBackend> {
  removeStaleTestPg();
  const dir = createTestPgDir();
  let handle: EmbeddedPostgresHandle = await startEmbeddedPostgres({ dataDir: dir });
  const port = handle.port;
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  return {
    url: handle.url,
    async crash() {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGQUIT');
      while (alive(pid)) await sleep(20);
      // The server has exited: stop() only waits for the handle's exit event, it sends nothing more.
      await handle.stop();
    },
    async start() {
      handle = await startEmbeddedPostgres({ dataDir: dir, port });
    },
    async destroy() {
      await handle.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A redis-server of its own on a free port. With `appendfsync always` every
 * write is on disk before Redis answers it, so a stream entry whose XADD the
 * outbox relay saw acknowledged survives a SIGKILL of Redis (the bus's
 * at-least-once guarantee needs that, or Kafka with acks=all).
 */
export async function startPrivateRedis(): Promise<PrivateBackend> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-fault-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir];
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const launch = async () => {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    const started = child;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const client = createClient({ url, socket: { reconnectStrategy: false } });
      client.on('error', () => undefined);
      const ok = await client.connect().then(() => client.ping()).then(() => true, () => false);
      await client.destroy();
      if (ok) return;
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
      await sleep(50);
    }
  };
  const exit = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => { running.once('exit', () => resolve()); running.kill(signal); });
  };
  const onExit = () => child?.kill('SIGKILL');
  process.once('exit', onExit);
  await launch();
  return {
    url,
    crash: () => exit('SIGKILL'),
    start: launch,
    async destroy() {
      process.removeListener('exit', onExit);
      await exit('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
