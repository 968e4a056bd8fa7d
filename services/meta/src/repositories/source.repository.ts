import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { sealedColumn } from '@tabula/runtime';
import { META_SCHEMA } from './meta-db';

/** A row of meta.sources (`config` sealed). */
export class SourceModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.sources`;
  static override jsonColumns = ['meta'];

  declare id: string;
  declare base_id: string;
  declare alias: string | null;
  declare type: 'pg' | 'mysql2' | 'sqlite3';
  declare is_meta: boolean;
  declare schema_name: string | null;
  declare config: string | null;
  declare enabled: boolean;
  /** The integration whose config this source uses (null: its own config). */
  declare fk_integration_id?: string | null;
  declare order: number | null;
  declare meta: Record<string, unknown> | null;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of meta.sources (`config` sealed). */
export type SourceRow = RowOf<SourceModel>;

/** Inserts a source. */
export async function insertSource(db: Knex, row: Partial<SourceRow>): Promise<void> {
  await SourceModel.query(db).insert({ ...row, meta: row.meta ? row.meta : null });
}

/** The sources of a base, default first. */
export async function listSources(db: Knex, baseId: string): Promise<SourceRow[]> {
  return SourceModel.query(db).where({ base_id: baseId }).orderBy('order');
}

/** One source. */
export async function findSource(db: Knex, id: string): Promise<SourceRow | undefined> {
  return SourceModel.query(db).where({ id }).first();
}

/** The sources built on an integration. */
export async function sourcesOfIntegration(db: Knex, integrationId: string): Promise<SourceRow[]> {
  return SourceModel.query(db).where({ fk_integration_id: integrationId }).orderBy('id');
}

/** Replaces a source's sealed config. */
export async function updateSourceConfig(db: Knex, id: string, sealed: string): Promise<void> {
  await SourceModel.query(db).where({ id }).patch({ config: sealed, updated_at: db.fn.now() as unknown as Date });
}

/** Detaches the sources built on an integration (they keep their last config). */
export async function detachIntegration(db: Knex, integrationId: string): Promise<void> {
  await SourceModel.query(db).where({ fk_integration_id: integrationId }).patch({ fk_integration_id: null });
}

/** External sources' sealed settings, as the start-up re-seal reads and replaces them. */
export const sealedSourceConfigs = sealedColumn(SourceModel.tableName, 'config');
