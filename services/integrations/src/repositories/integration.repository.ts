import type { Knex } from 'knex';

/** The integrations service's schema. */
export const INTEGRATIONS_SCHEMA = 'integrations';

/** A row of integrations.integrations. */
export interface IntegrationRow {
  id: string;
  title: string;
  type: string;
  sub_type: string;
  enabled: boolean;
  is_private: boolean;
  is_default: boolean;
  created_by: string;
  fk_workspace_id: string | null;
  config_sealed: string;
  meta: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** Filters of a list, already narrowed to what the caller may see. */
export interface IntegrationFilter {
  viewerId: string;
  type?: string;
  query?: string;
}

const table = (db: Knex) => db.withSchema(INTEGRATIONS_SCHEMA).table('integrations');

function visible(db: Knex, f: IntegrationFilter): Knex.QueryBuilder {
  const q = table(db).where((w) => w.where('is_private', false).orWhere('created_by', f.viewerId));
  if (f.type) q.where('type', f.type);
  if (f.query) q.whereILike('title', `%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return q;
}

/** One page of visible integrations, defaults first, then oldest first. */
export async function listIntegrations(db: Knex, f: IntegrationFilter, limit: number, offset: number): Promise<IntegrationRow[]> {
  return (await visible(db, f).orderBy([{ column: 'is_default', order: 'desc' }, { column: 'created_at' }, { column: 'id' }])
    .limit(limit).offset(offset)) as IntegrationRow[];
}

/** How many integrations match. */
export async function countIntegrations(db: Knex, f: IntegrationFilter): Promise<number> {
  const row = (await visible(db, f).count<{ count: string }[]>('* as count'))[0];
  return Number(row?.count ?? 0);
}

/** One integration, whoever may see it. */
export async function findIntegration(db: Knex, id: string): Promise<IntegrationRow | undefined> {
  return (await table(db).where({ id }).first()) as IntegrationRow | undefined;
}

/** Inserts an integration. */
export async function insertIntegration(db: Knex, row: Omit<IntegrationRow, 'created_at' | 'updated_at'>): Promise<void> {
  await table(db).insert({ ...row, meta: row.meta ? JSON.stringify(row.meta) : null });
}

/** Updates an integration's columns. */
export async function updateIntegration(db: Knex, id: string, patch: Partial<IntegrationRow>): Promise<void> {
  const row: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if ('meta' in patch) row.meta = patch.meta ? JSON.stringify(patch.meta) : null;
  await table(db).where({ id }).update(row);
}

/** Clears the default flag of the other integrations of a type (one default per type). */
export async function clearDefault(db: Knex, type: string, exceptId: string): Promise<void> {
  await table(db).where({ type, is_default: true }).whereNot({ id: exceptId }).update({ is_default: false, updated_at: db.fn.now() });
}

/** Deletes an integration (its store rows cascade). */
export async function deleteIntegration(db: Knex, id: string): Promise<void> {
  await table(db).where({ id }).delete();
}

/** Every row's id and sealed config, locked for a rotation batch. */
export async function sealedConfigsAfter(trx: Knex, afterId: string, limit: number): Promise<Pick<IntegrationRow, 'id' | 'config_sealed'>[]> {
  return (await table(trx).select('id', 'config_sealed').where('id', '>', afterId).orderBy('id').limit(limit).forUpdate()) as Pick<IntegrationRow, 'id' | 'config_sealed'>[];
}

/** Replaces a row's sealed config without touching updated_at (rotation is not a change). */
export async function replaceSealed(trx: Knex, id: string, sealed: string): Promise<void> {
  await table(trx).where({ id }).update({ config_sealed: sealed });
}
