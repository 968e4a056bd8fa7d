import knexFactory, { type Knex } from 'knex';
import type { SourceInfo } from '@tabula/contracts';
import type { Dialect } from '@tabula/query';

/** Where a table's rows live: a knex, its dialect and (pg) the schema. */
export interface SourceHandle {
  id: string;
  knex: Knex;
  dialect: Dialect;
  schema?: string;
  /** True for default sources: the rows and our outbox share one database, so one transaction covers both. */
  sharesOutboxDatabase: boolean;
}

/**
 * One knex pool per source, created on first use and cached by source id.
 * Default sources use the data database's pool scoped to their schema.
 */
export class SourceRegistry {
  private readonly pools = new Map<string, Knex>();

  constructor(private readonly dataDb: Knex) {}

  /** The handle of a source as the meta service describes it. */
  handleOf(source: SourceInfo): SourceHandle {
    if (source.is_meta) return { id: source.id, knex: this.dataDb, dialect: 'pg', schema: source.schema, sharesOutboxDatabase: true };
    let knex = this.pools.get(source.id);
    if (!knex) {
      knex = externalKnex(source.type, source.connection ?? {});
      this.pools.set(source.id, knex);
    }
    return { id: source.id, knex, dialect: source.type, schema: source.type === 'pg' ? source.schema : undefined, sharesOutboxDatabase: false };
  }

  /** Closes every external pool (shutdown). */
  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((k) => k.destroy()));
  }
}

/** MySQL: dates as text and UTC, so values never shift with the process's time zone. */
function mysqlConnection(connection: Record<string, unknown> | string): Record<string, unknown> | string {
  if (typeof connection !== 'string') return { dateStrings: true, timezone: 'Z', ...connection };
  const url = new URL(connection);
  if (!url.searchParams.has('dateStrings')) url.searchParams.set('dateStrings', 'true');
  if (!url.searchParams.has('timezone')) url.searchParams.set('timezone', 'Z');
  return url.toString();
}

function externalKnex(type: Dialect, connection: Record<string, unknown> | string): Knex {
  return knexFactory({
    client: type, connection: (type === 'mysql2' ? mysqlConnection(connection) : connection) as Knex.StaticConnectionConfig, useNullAsDefault: true,
    pool: type === 'sqlite3' ? { min: 1, max: 1 } : { min: 0, max: 10, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
  });
}
