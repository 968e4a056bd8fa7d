import type { Knex } from 'knex';
import { SourceRegistry as SourcePools, type SourceHandle } from '@tabula/db';
import { errors } from '@tabula/http';
import type { AtRestRing } from '@tabula/runtime';
import type { SourceRow } from '../repositories/source.repository';

export { externalKnex } from '@tabula/db';

/** The sealed form of an external source's settings. */
export interface SealedSourceConfig {
  connection: Record<string, unknown>;
  schema?: string;
}

/** DDL runs one at a time per table: a smaller pool per external source than data's DML pools. */
const META_POOL_MAX = 5;

/**
 * Meta's view of the shared source registry of libs/db: the same pools, plus
 * sealing and opening of the external settings meta stores encrypted.
 */
export class SourceRegistry {
  private readonly pools: SourcePools;

  constructor(dataDb: Knex, private readonly box: AtRestRing) {
    this.pools = new SourcePools(dataDb, { poolMax: META_POOL_MAX });
  }

  /** The DDL handle of a source row. */
  handleOf(source: SourceRow): SourceHandle {
    if (source.is_meta) return this.pools.handleOf({ id: source.id, is_meta: true, type: 'pg', schema: source.schema_name });
    const sealed = this.configOf(source);
    return this.pools.handleOf({
      id: source.id, base_id: source.base_id, is_meta: false, type: source.type,
      schema: sealed.schema, connection: sealed.connection, fingerprint: source.config!,
    });
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
    await this.pools.release(sourceId);
  }

  /** Closes every external pool. */
  async close(): Promise<void> {
    await this.pools.close();
  }
}
