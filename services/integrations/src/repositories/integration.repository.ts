import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { sealedColumn } from '@tabula/runtime';

/** The integrations service's schema. */
export const INTEGRATIONS_SCHEMA = 'integrations';

/** A row of integrations.integrations (`meta` is written by the repository: SQL NULL when empty). */
export class IntegrationModel extends BaseModel {
  static override tableName = `${INTEGRATIONS_SCHEMA}.integrations`;

  declare id: string;
  declare title: string;
  declare type: string;
  declare sub_type: string;
  declare enabled: boolean;
  declare is_private: boolean;
  declare is_default: boolean;
  declare created_by: string;
  declare fk_workspace_id: string | null;
  declare config_sealed: string;
  declare meta: Record<string, unknown> | null;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of integrations.integrations. */
export type IntegrationRow = RowOf<IntegrationModel>;

/** Filters of a list, already narrowed to what the caller may see. */
export interface IntegrationFilter {
  viewerId: string;
  type?: string;
  query?: string;
}

function visible(db: Knex, f: IntegrationFilter) {
  const q = IntegrationModel.query(db).where((w) => w.where('is_private', false).orWhere('created_by', f.viewerId));
  if (f.type) q.where('type', f.type);
  if (f.query) q.whereILike('title', `%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return q;
}

/** One page of visible integrations, defaults first, then oldest first. */
export async function listIntegrations(db: Knex, f: IntegrationFilter, limit: number, offset: number): Promise<IntegrationRow[]> {
  return visible(db, f).orderBy([{ column: 'is_default', order: 'desc' }, { column: 'created_at' }, { column: 'id' }])
    .limit(limit).offset(offset);
}

/** How many integrations match. */
export async function countIntegrations(db: Knex, f: IntegrationFilter): Promise<number> {
  return visible(db, f).resultSize();
}

/** One integration, whoever may see it. */
export async function findIntegration(db: Knex, id: string): Promise<IntegrationRow | undefined> {
  return IntegrationModel.query(db).where({ id }).first();
}

/** Inserts an integration. */
export async function insertIntegration(db: Knex, row: Omit<IntegrationRow, 'created_at' | 'updated_at'>): Promise<void> {
  await IntegrationModel.query(db).insert({ ...row, meta: (row.meta ? JSON.stringify(row.meta) : null) as IntegrationRow['meta'] });
}

/** Updates an integration's columns. */
export async function updateIntegration(db: Knex, id: string, patch: Partial<IntegrationRow>): Promise<void> {
  const row: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if ('meta' in patch) row.meta = patch.meta ? JSON.stringify(patch.meta) : null;
  await IntegrationModel.query(db).where({ id }).patch(row);
}

/** Clears the default flag of the other integrations of a type (one default per type). */
export async function clearDefault(db: Knex, type: string, exceptId: string): Promise<void> {
  await IntegrationModel.query(db).where({ type, is_default: true }).whereNot({ id: exceptId }).patch({ is_default: false, updated_at: db.fn.now() as unknown as Date });
}

/** Deletes an integration (its store rows cascade). */
export async function deleteIntegration(db: Knex, id: string): Promise<void> {
  await IntegrationModel.query(db).where({ id }).delete();
}

/** Integration configs, as the re-seal (start-up, `integrations:rotate-keys`) reads and replaces them. */
export const sealedIntegrationConfigs = sealedColumn(IntegrationModel.tableName, 'config_sealed');
