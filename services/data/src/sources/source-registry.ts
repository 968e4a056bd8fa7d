import knexFactory, { type Knex } from 'knex';
import type { SourceInfo } from '@tabula/contracts';
import { AppError } from '@tabula/http';
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
  /** The connection each pool was built from: a changed one (integration config update) rebuilds the pool. */
  private readonly builtFrom = new Map<string, string>();

  constructor(private readonly dataDb: Knex) {}

  /** The handle of a source as the meta service describes it. */
  handleOf(source: SourceInfo): SourceHandle {
    if (source.is_meta) return { id: source.id, knex: this.dataDb, dialect: 'pg', schema: source.schema, sharesOutboxDatabase: true };
    const fingerprint = JSON.stringify(source.connection ?? {});
    let knex = this.pools.get(source.id);
    if (knex && this.builtFrom.get(source.id) !== fingerprint) {
      void knex.destroy().catch(() => undefined);
      knex = undefined;
    }
    if (!knex) {
      knex = externalKnex(source.type, source.connection ?? {});
      nameSourceOnConnectFailure(knex, source);
      this.pools.set(source.id, knex);
      this.builtFrom.set(source.id, fingerprint);
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

/**
 * A source that cannot be reached (refused login, unknown database, host down)
 * answers 502 naming the source and the driver's code, never its message
 * (which can carry the user or host).
 */
function nameSourceOnConnectFailure(knex: Knex, source: SourceInfo): void {
  const client = knex.client as { acquireConnection(): Promise<unknown> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => acquire().catch((err: unknown) => {
    const code = (err as { code?: unknown }).code;
    throw new AppError(502, 'ERR_SOURCE_UNAVAILABLE',
      `Cannot connect to data source '${source.id}' of base '${source.base_id}' (${source.type}${typeof code === 'string' ? `, ${code}` : ''})`);
  });
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
    // knex prints pool errors to the console; an unreachable source is reported as ERR_SOURCE_UNAVAILABLE instead
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
}
