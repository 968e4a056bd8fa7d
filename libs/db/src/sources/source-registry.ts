import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { appError } from '@tabula/errors';
import { DEFAULT_PREPARED_PER_CONNECTION } from '../prepared';

/** The SQL dialects a data source can speak (knex client names). */
export type Dialect = 'pg' | 'mysql2' | 'sqlite3';

/** Where a table's rows live: a knex (pooled per source), its dialect and, for PostgreSQL, the schema. */
export interface SourceHandle {
  id: string;
  dialect: Dialect;
  knex: Knex;
  /** PostgreSQL schema (default sources and pg external sources); undefined elsewhere. */
  schema?: string;
  /** True for default sources: the rows and the service's outbox share one database, so one transaction covers both. */
  sharesOutboxDatabase: boolean;
  /**
   * Named statements kept per pooled connection for the hot cached reads
   * (prepared.ts); 0 runs them unnamed. Default sources only (our own
   * database): an external PostgreSQL may sit behind a transaction pooler.
   */
  preparedPerConnection: number;
}

/** A source as its owner describes it: the default source of a base, or an external one with its connection. */
export interface SourceDescription {
  id: string;
  base_id?: string;
  /** The default source: the data database, scoped to `schema`. */
  is_meta: boolean;
  type: Dialect;
  schema?: string | null;
  /** External sources only: the driver's connection settings (object or URL). */
  connection?: Record<string, unknown> | string;
  /** What the pool was built from; a change rebuilds it (defaults to the connection as JSON). */
  fingerprint?: string;
}

/** Pool size of an external source. */
export interface SourcePoolOptions {
  /** Largest pool per external pg/MySQL source (SQLite always has one connection). Default 10. */
  poolMax?: number;
  /** Named statements per connection of the default (data database) source; 0 = off. Default 100. */
  preparedPerConnection?: number;
}

/** MySQL: dates as text and UTC, so values never shift with the process's time zone. */
function mysqlConnection(connection: Record<string, unknown> | string): Record<string, unknown> | string {
  if (typeof connection !== 'string') return { dateStrings: true, timezone: 'Z', ...connection };
  const url = new URL(connection);
  if (!url.searchParams.has('dateStrings')) url.searchParams.set('dateStrings', 'true');
  if (!url.searchParams.has('timezone')) url.searchParams.set('timezone', 'Z');
  return url.toString();
}

/**
 * GROUP_CONCAT's limit on a MySQL connection: list lookups, their sort keys and
 * the array formulas are built with GROUP_CONCAT, which cuts its result at
 * `group_concat_max_len` without an error (MySQL's default is 1,024 bytes,
 * MariaDB's 1 MiB). 16 MiB: the largest cell a list may read as.
 */
export const MYSQL_GROUP_CONCAT_MAX_LEN = 16 * 1024 * 1024;

/** Sets the session's GROUP_CONCAT limit on each new MySQL connection (mysql2's callback API). */
function mysqlSession(conn: { query(sql: string, done: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void): void {
  conn.query(`SET SESSION group_concat_max_len = ${MYSQL_GROUP_CONCAT_MAX_LEN}`, (err) => done(err, conn));
}

/**
 * Builds a knex for an external source: MySQL reads dates as text in UTC and
 * GROUP_CONCAT is not cut at 1 KiB, a SQLite file's folder is created, and knex's own console logging is off (a
 * failing source is reported through our errors instead).
 */
export function externalKnex(type: Dialect, connection: Record<string, unknown> | string, options: SourcePoolOptions = {}): Knex {
  if (type === 'sqlite3' && typeof connection !== 'string' && connection.filename) {
    mkdirSync(path.dirname(String(connection.filename)), { recursive: true });
  }
  return knexFactory({
    client: type, connection: (type === 'mysql2' ? mysqlConnection(connection) : connection) as Knex.StaticConnectionConfig,
    useNullAsDefault: true,
    pool: type === 'sqlite3' ? { min: 1, max: 1 }
      : { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000, ...(type === 'mysql2' ? { afterCreate: mysqlSession } : {}) },
    acquireConnectionTimeout: 10_000,
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
}

/**
 * A source that cannot be reached (refused login, unknown database, host down)
 * answers 502 naming the source and the driver's code, never its message
 * (which can carry the user or host).
 */
function nameSourceOnConnectFailure(knex: Knex, source: SourceDescription): void {
  const client = knex.client as { acquireConnection(): Promise<unknown> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => acquire().catch((err: unknown) => {
    const code = (err as { code?: unknown }).code;
    const base = source.base_id ? ` of base '${source.base_id}'` : '';
    throw appError('ERR_SOURCE_UNAVAILABLE',
      `Cannot connect to data source '${source.id}'${base} (${source.type}${typeof code === 'string' ? `, ${code}` : ''})`);
  });
}

/**
 * One knex pool per data source, created on first use and kept for the life of
 * the process (meta runs DDL through it, data DML). Default sources share the
 * data database's pool, scoped to their schema.
 */
export class SourceRegistry {
  private readonly pools = new Map<string, Knex>();
  private readonly builtFrom = new Map<string, string>();

  constructor(private readonly dataDb: Knex, private readonly options: SourcePoolOptions = {}) {}

  /** The handle of a source. */
  handleOf(source: SourceDescription): SourceHandle {
    if (source.is_meta) {
      return {
        id: source.id, dialect: 'pg', knex: this.dataDb, schema: source.schema ?? undefined, sharesOutboxDatabase: true,
        preparedPerConnection: this.options.preparedPerConnection ?? DEFAULT_PREPARED_PER_CONNECTION,
      };
    }
    const fingerprint = source.fingerprint ?? JSON.stringify(source.connection ?? {});
    let knex = this.pools.get(source.id);
    if (knex && this.builtFrom.get(source.id) !== fingerprint) {
      void knex.destroy().catch(() => undefined);
      knex = undefined;
    }
    if (!knex) {
      knex = externalKnex(source.type, source.connection ?? {}, this.options);
      nameSourceOnConnectFailure(knex, source);
      this.pools.set(source.id, knex);
      this.builtFrom.set(source.id, fingerprint);
    }
    const schema = source.type === 'pg' ? source.schema ?? undefined : undefined;
    return { id: source.id, dialect: source.type, knex, schema, sharesOutboxDatabase: false, preparedPerConnection: 0 };
  }

  /** Drops a source's pool (base deleted, integration changed). */
  async release(sourceId: string): Promise<void> {
    const knex = this.pools.get(sourceId);
    this.pools.delete(sourceId);
    this.builtFrom.delete(sourceId);
    if (knex) await knex.destroy();
  }

  /** Closes every external pool (shutdown). */
  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    this.builtFrom.clear();
    await Promise.all(all.map((k) => k.destroy()));
  }
}
