import type { Knex } from 'knex';
import type { BaseCandidates } from '@tabula/auth';
import { metaTable } from './meta-db';

/** A row of meta.bases. */
export interface BaseRow {
  id: string;
  title: string;
  description: string | null;
  color: string | null;
  meta: Record<string, unknown> | null;
  order: number | null;
  deleted: boolean;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Inserts a base. */
export async function insertBase(db: Knex, row: Partial<BaseRow>): Promise<void> {
  await metaTable(db, 'bases').insert({ ...row, meta: row.meta ? JSON.stringify(row.meta) : null });
}

/** A live base by id (titles are resolved per caller: {@link baseCandidates}). */
export async function findBase(db: Knex, id: string): Promise<BaseRow | undefined> {
  return (await metaTable(db, 'bases').where({ id, deleted: false }).first()) as BaseRow | undefined;
}

/** The live bases a reference could mean: the one with that id, else every one with that title (any tenant). */
export async function baseCandidates(db: Knex, ref: string): Promise<BaseCandidates> {
  const byId = await findBase(db, ref);
  if (byId) return { byId: byId.id, byTitle: [] };
  const rows = (await metaTable(db, 'bases').where({ title: ref, deleted: false }).orderBy('created_at').select('id')) as { id: string }[];
  return { byTitle: rows.map((r) => r.id) };
}

/** Every live base, ordered (the list endpoint filters by membership). */
export async function listLiveBases(db: Knex, page?: { offset: number; limit: number }): Promise<BaseRow[]> {
  const q = metaTable(db, 'bases').where({ deleted: false }).orderBy([{ column: 'order', order: 'asc' }, { column: 'created_at' }]);
  if (page) q.offset(page.offset).limit(page.limit);
  return (await q) as BaseRow[];
}

/** Number of live bases. */
export async function countLiveBases(db: Knex): Promise<number> {
  const row = await metaTable(db, 'bases').where({ deleted: false }).count<{ count: string }[]>('id as count').first();
  return Number(row?.count ?? 0);
}

/** Updates a base's fields. */
export async function updateBase(db: Knex, id: string, patch: Partial<BaseRow>): Promise<void> {
  const row: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if (patch.meta !== undefined) row.meta = patch.meta === null ? null : JSON.stringify(patch.meta);
  await metaTable(db, 'bases').where({ id }).update(row);
}

/** Next order position among bases. */
export async function nextBaseOrder(db: Knex): Promise<number> {
  const row = await metaTable(db, 'bases').max<{ max: number | null }[]>('order as max').first();
  return Number(row?.max ?? 0) + 1;
}
