import path from 'node:path';
import { errors } from '@tabula/http';
import type { Dialect } from '../ddl/dialect';

/** The knex connection settings of an external source, as sealed at rest. */
export type ConnectionConfig = Record<string, unknown>;

/**
 * Normalises a NocoDB-style `config` (`{client, connection: {...}}` or the
 * connection itself, or a connection string) into a knex `connection`.
 * SQLite files must live under `${DATA_DIR}/sqlite` so one tenant cannot open
 * another's files or anything else on the host.
 */
export function connectionOf(type: Dialect, config: unknown, dataDir: string): ConnectionConfig {
  const raw = (config && typeof config === 'object' && 'connection' in config ? (config as { connection: unknown }).connection : config);
  if (type === 'sqlite3') return { filename: sqlitePath(raw, dataDir) };
  if (typeof raw === 'string') return { connectionString: raw };
  if (!raw || typeof raw !== 'object') throw errors.badRequest('sources[].config.connection is required');
  const c = raw as Record<string, unknown>;
  const out: ConnectionConfig = {};
  for (const key of ['host', 'port', 'user', 'password', 'database', 'ssl', 'connectionString']) if (c[key] !== undefined) out[key] = c[key];
  if (!out.database && !out.connectionString) throw errors.badRequest('sources[].config.connection.database is required');
  return out;
}

/** Resolves a SQLite filename inside `${DATA_DIR}/sqlite`; refuses anything outside. */
export function sqlitePath(raw: unknown, dataDir: string): string {
  const given = typeof raw === 'string' ? raw : (raw as { filename?: unknown } | null)?.filename;
  if (typeof given !== 'string' || given.trim() === '' || given.includes('\0')) {
    throw errors.badRequest('sources[].config.connection.filename is required for sqlite3');
  }
  const root = path.resolve(dataDir, 'sqlite');
  const resolved = path.resolve(root, given);
  if (resolved !== root && resolved.startsWith(root + path.sep)) return resolved;
  throw errors.badRequest(`SQLite files must be inside the data directory's sqlite folder (${root})`);
}

/** The PostgreSQL schema of an external pg source (its `searchPath` or `public`). */
export function pgSchemaOf(config: unknown): string {
  const sp = (config as { searchPath?: unknown } | null)?.searchPath;
  const first = Array.isArray(sp) ? sp[0] : sp;
  return typeof first === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(first) ? first : 'public';
}
