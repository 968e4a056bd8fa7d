import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { errors } from '@tabula/http';
import type { Dialect, SourceHandle } from '../ddl/dialect';
import type { SecretBox } from '../lib/secret-box';
import type { SourceRow } from '../repositories/source.repository';

/** The sealed form of an external source's settings. */
export interface SealedSourceConfig {
  connection: Record<string, unknown>;
  schema?: string;
}

/** Builds a knex for an external source (small pool: many sources share one process). */
export function externalKnex(type: Dialect, connection: Record<string, unknown>): Knex {
  if (type === 'sqlite3') mkdirSync(path.dirname(String(connection.filename)), { recursive: true });
  return knexFactory({
    client: type, connection: connection as Knex.StaticConnectionConfig, useNullAsDefault: true,
    pool: type === 'sqlite3' ? { min: 1, max: 1 } : { min: 0, max: 5, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
    // knex prints pool errors to the console by default; a failing source is reported through our errors instead
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
}

/**
 * One knex pool per data source, created on first use and kept for the life
 * of the process. Default sources share the data database's pool, scoped to
 * their schema.
 */
export class SourceRegistry {
  private readonly pools = new Map<string, Knex>();
  /** The sealed config each pool was built from: a changed config (integration update) rebuilds the pool. */
  private readonly builtFrom = new Map<string, string>();

  constructor(private readonly dataDb: Knex, private readonly box: SecretBox) {}

  /** The DDL handle of a source row. */
  handleOf(source: SourceRow): SourceHandle {
    if (source.is_meta) return { id: source.id, dialect: 'pg', knex: this.dataDb, schema: source.schema_name ?? undefined };
    const sealed = this.configOf(source);
    let knex = this.pools.get(source.id);
    if (knex && this.builtFrom.get(source.id) !== source.config) {
      void knex.destroy().catch(() => undefined);
      knex = undefined;
    }
    if (!knex) {
      knex = externalKnex(source.type, sealed.connection);
      this.pools.set(source.id, knex);
      this.builtFrom.set(source.id, source.config!);
    }
    return { id: source.id, dialect: source.type, knex, schema: sealed.schema };
  }

  /** Encrypts an external source's settings for storage. */
  seal(config: SealedSourceConfig): string {
    return this.box.seal(config);
  }

  /** Decrypted settings of an external source (internal API and pools only). */
  configOf(source: SourceRow): SealedSourceConfig {
    if (!source.config) throw errors.badRequest(`Source '${source.id}' has no connection settings`);
    return this.box.open<SealedSourceConfig>(source.config);
  }

  /** Drops a source's pool (base deleted). */
  async release(sourceId: string): Promise<void> {
    const knex = this.pools.get(sourceId);
    this.pools.delete(sourceId);
    this.builtFrom.delete(sourceId);
    if (knex) await knex.destroy();
  }

  /** Closes every external pool. */
  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((k) => k.destroy()));
  }
}
