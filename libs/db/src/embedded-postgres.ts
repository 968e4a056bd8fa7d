import { existsSync, readFileSync, unlinkSync, writeFileSync, chownSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import net from 'node:net';
import { arch, platform } from 'node:os';
import { randomBytes } from 'node:crypto';
import { prepareClusterDir, postgresUser, type PostgresUser } from './embedded-postgres-dir';

/** A running embedded PostgreSQL server. */
export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  /** Fast shutdown (clients are disconnected); resolves once the server has exited. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster; created when missing, kept across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  onLog?: (line: string) => void;
}

interface Binaries { postgres: string; initdb: string }

/**
 * The PostgreSQL binaries of the `embedded-postgres` package. Its main module is
 * not used: it installs its own SIGINT/SIGTERM exit hook that stops PostgreSQL
 * before Tabula has drained, and spawns the server in our process group (Ctrl-C
 * would reach it directly). Tabula starts and stops the server itself.
 */
function binaries(): Binaries {
  // The package's only export is dist/index.js; the binaries sit in native/bin beside it.
  const entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const bin = path.resolve(path.dirname(entry), '..', 'native', 'bin');
  return { postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb') };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** As root PostgreSQL runs as `postgres`: a folder above its binaries (node_modules) that it cannot enter stops it; say which setting to change. */
function unreachableBinaries(bin: string): Error {
  return new Error(`Embedded PostgreSQL runs as the 'postgres' user (Tabula runs as root) and cannot run ${bin}: ` +
    'a folder above it does not let other users through (e.g. a 0700 home or temp folder); move the repository or chmod o+x that folder');
}

/** Runs a binary (as `postgres` when we are root) and rejects with its output when it fails. */
function run(bin: string, args: string[], user: PostgresUser | undefined, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...user, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => { const text = chunk.toString('utf8'); output += text; log(text); };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err: NodeJS.ErrnoException) => reject(user && err.code === 'EACCES' ? unreachableBinaries(bin) : err));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} failed (exit ${code}): ${output.trim().slice(-2000)}`))));
  });
}

async function initialise(bins: Binaries, clusterDir: string, password: string, user: PostgresUser | undefined, log: (line: string) => void): Promise<void> {
  // initdb reads the password from a file; it lives beside the cluster, readable by its owner only.
  const pwfile = path.join(path.dirname(clusterDir), `.initdb-pw-${randomBytes(4).toString('hex')}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  try {
    await run(bins.initdb, [`--pgdata=${clusterDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--lc-messages=C'], user, log);
  } finally {
    unlinkSync(pwfile);
  }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** The file beside the cluster naming the process that started (owns) the running server. */
const OWNER_FILE = 'pg-owner.pid';

/**
 * A server left running by a Tabula that was killed (SIGKILL) still holds the folder: stop it first.
 * Only a leftover: a server whose owning process still runs is never stopped (the start refuses instead).
 */
async function stopLeftover(root: string, clusterDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  const ownerFile = path.join(root, OWNER_FILE);
  const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8').trim()) : NaN;
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
    throw new Error(`PostgreSQL ${pid} on ${clusterDir} belongs to the running process ${owner}: stop it or use another folder`);
  }
  log(`stopping PostgreSQL ${pid} left running on ${clusterDir}`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && alive(pid); i += 1) await new Promise((r) => setTimeout(r, 100));
}

/** Spawns the server in its own process group and resolves once it accepts connections. */
function launch(bins: Binaries, clusterDir: string, port: number, user: PostgresUser | undefined, log: (line: string) => void): Promise<ChildProcess> {
  const args = ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const child = spawn(bins.postgres, args, { ...user, detached: true, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      if (output.length < 8000) output += text;
      if (text.includes('database system is ready to accept connections')) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', (err: NodeJS.ErrnoException) => reject(user && err.code === 'EACCES' ? unreachableBinaries(bins.postgres) : err));
    child.on('exit', (code) => reject(new Error(`PostgreSQL exited while starting (exit ${code}): ${output.trim().slice(-2000)}`)));
  });
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster under `dataDir` with a
 * generated password kept beside it, and returns its connection URL. When we are
 * root the server runs as the `postgres` system user.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = options.onLog ?? (() => undefined);
  const bins = binaries();
  const root = path.resolve(options.dataDir);
  const user = postgresUser();
  const clusterDir = prepareClusterDir(root, user);
  const passwordFile = path.join(root, 'pg-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialise(bins, clusterDir, password, user, log);
  await stopLeftover(root, clusterDir, log);
  const port = options.port && options.port > 0 ? options.port : await freePort();
  const child = await launch(bins, clusterDir, port, user, log);
  const ownerFile = path.join(root, OWNER_FILE);
  writeFileSync(ownerFile, String(process.pid));
  const exited = new Promise<void>((resolve) => child.once('exit', () => { try { unlinkSync(ownerFile); } catch { /* gone */ } resolve(); }));
  // Last resort when the process exits without stop() (uncaught error, process.exit).
  const onExit = () => { if (child.exitCode === null) child.kill('SIGINT'); };
  process.once('exit', onExit);
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
