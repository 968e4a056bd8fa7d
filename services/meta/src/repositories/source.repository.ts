import type { Knex } from 'knex';
import { metaTable } from './meta-db';

/** A row of meta.sources (`config` sealed). */
export interface SourceRow {
  id: string;
  base_id: string;
  alias: string | null;
  type: 'pg' | 'mysql2' | 'sqlite3';
  is_meta: boolean;
  schema_name: string | null;
  config: string | null;
  enabled: boolean;
  /** The integration whose config this source uses (null: its own config). */
  fk_integration_id?: string | null;
  order: number | null;
  meta: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** Inserts a source. */
export async function insertSource(db: Knex, row: Partial<SourceRow>): Promise<void> {
  await metaTable(db, 'sources').insert({ ...row, meta: row.meta ? JSON.stringify(row.meta) : null });
}

/** The sources of a base, default first. */
export async function listSources(db: Knex, baseId: string): Promise<SourceRow[]> {
  return (await metaTable(db, 'sources').where({ base_id: baseId }).orderBy('order')) as SourceRow[];
}

/** One source. */
export async function findSource(db: Knex, id: string): Promise<SourceRow | undefined> {
  return (await metaTable(db, 'sources').where({ id }).first()) as SourceRow | undefined;
}

/** The sources built on an integration. */
export async function sourcesOfIntegration(db: Knex, integrationId: string): Promise<SourceRow[]> {
  return (await metaTable(db, 'sources').where({ fk_integration_id: integrationId }).orderBy('id')) as SourceRow[];
}
