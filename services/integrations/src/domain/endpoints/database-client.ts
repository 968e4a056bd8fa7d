import path from 'node:path';
import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { AppError, appError, errors } from '@tabula/http';
import type { IntegrationsPorts } from '../../ports';
import { allowedAddress } from '../../adapters/host-policy';

type Dialect = 'pg' | 'mysql2' | 'sqlite3';

/** Resolves a SQLite filename inside `${DATA_DIR}/sqlite` (the rule meta applies to sources). */
function sqliteFile(config: Record<string, unknown>, dataDir: string): string {
  const given = (config.connection as { filename?: unknown } | undefined)?.filename;
  const root = path.resolve(dataDir, 'sqlite');
  const resolved = path.resolve(root, String(given ?? ''));
  if (typeof given !== 'string' || given.includes('\0') || !resolved.startsWith(root + path.sep)) {
    throw errors.badRequest(`SQLite files must be inside the data directory's sqlite folder (${root})`);
  }
  mkdirSync(path.dirname(resolved), { recursive: true });
  return resolved;
}

async function connectionOf(ports: IntegrationsPorts, dialect: Dialect, config: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (dialect === 'sqlite3') return { filename: sqliteFile(config, ports.platform.DATA_DIR) };
  const c = config.connection as Record<string, unknown>;
  const host = await allowedAddress(String(c.host), ports.config.SVC_ALLOW_LOCAL_SOURCES);
  const timeout = ports.config.SVC_INTEGRATIONS_CONNECT_TIMEOUT_MS;
  const base = { host, port: c.port, user: c.user, password: c.password, database: c.database, ssl: c.ssl };
  return dialect === 'pg' ? { ...base, connectionTimeoutMillis: timeout, statement_timeout: timeout } : { ...base, connectTimeout: timeout };
}

/**
 * Runs `work` on a short-lived connection to the integration's database, with
 * the connect timeout and the host policy applied. Driver errors are reported
 * by code only (their messages can echo the user or host).
 */
export async function withDatabase<T>(
  ports: IntegrationsPorts, dialect: Dialect, config: Record<string, unknown>, work: (knex: Knex) => Promise<T>,
): Promise<T> {
  const timeout = ports.config.SVC_INTEGRATIONS_CONNECT_TIMEOUT_MS;
  const knex = knexFactory({
    client: dialect, connection: (await connectionOf(ports, dialect, config)) as Knex.StaticConnectionConfig, useNullAsDefault: true,
    pool: { min: 0, max: 1 }, acquireConnectionTimeout: timeout,
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(appError('ERR_INTEGRATION_TIMEOUT', `The ${dialect} database did not answer within ${timeout} ms`)), timeout);
  });
  try {
    return await Promise.race([work(knex), deadline]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: unknown }).code;
    throw appError('ERR_INTEGRATION_CONNECTION', `Cannot connect to the ${dialect} database${typeof code === 'string' ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
    void knex.destroy().catch(() => undefined);
  }
}
