import type { Knex } from 'knex';
import type { BaseCandidates } from '@tabula/auth';
import { BaseModel, type RowOf } from '@tabula/db';
import { META_SCHEMA } from './meta-db';

/** A row of meta.bases. */
export class MetaBaseModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.bases`;
  static override jsonColumns = ['meta'];

  declare id: string;
  declare title: string;
  declare description: string | null;
  declare color: string | null;
  declare meta: Record<string, unknown> | null;
  declare order: number | null;
  declare deleted: boolean;
  declare created_by: string | null;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of meta.bases. */
export type BaseRow = RowOf<MetaBaseModel>;

/** Inserts a base. */
export async function insertBase(db: Knex, row: Partial<BaseRow>): Promise<void> {
  await MetaBaseModel.query(db).insert({ ...row, meta: row.meta ? row.meta : null });
}

/** A live base by id (titles are resolved per caller: {@link baseCandidates}). */
export async function findBase(db: Knex, id: string): Promise<BaseRow | undefined> {
  return MetaBaseModel.query(db).where({ id, deleted: false }).first();
}

/** The live bases a reference could mean: the one with that id, else every one with that title (any tenant). */
export async function baseCandidates(db: Knex, ref: string): Promise<BaseCandidates> {
  const byId = await findBase(db, ref);
  if (byId) return { byId: byId.id, byTitle: [] };
  const rows = await MetaBaseModel.query(db).where({ title: ref, deleted: false }).orderBy('created_at').select('id');
  return { byTitle: rows.map((r) => r.id) };
}

/** Every live base, ordered (the list endpoint filters by membership). */
export async function listLiveBases(db: Knex, page?: { offset: number; limit: number }): Promise<BaseRow[]> {
  const q = MetaBaseModel.query(db).where({ deleted: false }).orderBy([{ column: 'order', order: 'asc' }, { column: 'created_at' }]);
  if (page) q.offset(page.offset).limit(page.limit);
  return q;
}

/** Number of live bases. */
export async function countLiveBases(db: Knex): Promise<number> {
  return MetaBaseModel.query(db).where({ deleted: false }).resultSize();
}

/** Updates a base's fields. */
export async function updateBase(db: Knex, id: string, patch: Partial<BaseRow>): Promise<void> {
  await MetaBaseModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() as unknown as Date });
}

/** Next order position among bases. */
export async function nextBaseOrder(db: Knex): Promise<number> {
  const row = await MetaBaseModel.query(db).max('order as max').first() as unknown as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}
