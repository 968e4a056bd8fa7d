import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';

/** The storage service's schema. */
export const STORAGE_SCHEMA = 'storage';

/** A stored object's metadata row (`storage.objects`). */
export class ObjectModel extends BaseModel {
  static override tableName = `${STORAGE_SCHEMA}.objects`;

  declare id: string;
  declare key: string;
  declare title: string;
  declare mimetype: string;
  declare size: number;
  declare checksum: string;
  declare scope: 'public' | 'private';
  declare backend: 'local' | 's3';
  declare uploaded_by: string | null;
  declare created_at: Date;
  declare unreferenced_since: Date | null;

  /** `size` is a bigint: pg answers it as text. */
  override $parseDatabaseJson(json: Record<string, unknown>): Record<string, unknown> {
    const out = super.$parseDatabaseJson(json) as Record<string, unknown>;
    if (out.size !== undefined && out.size !== null) out.size = Number(out.size);
    return out;
  }
}

/** A stored object's metadata row. */
export type ObjectRow = RowOf<ObjectModel>;

/** A column an object was written to (`storage.object_uses`). */
export class ObjectUseModel extends BaseModel {
  static override tableName = `${STORAGE_SCHEMA}.object_uses`;
  static override idColumn = ['object_id', 'table_id', 'column_id'];

  declare object_id: string;
  declare base_id: string;
  declare table_id: string;
  declare column_id: string;
}

/** Records a stored object. */
export async function insertObject(db: Knex, row: Omit<ObjectRow, 'created_at' | 'unreferenced_since'>): Promise<void> {
  await ObjectModel.query(db).insert(row);
}

/** Objects by key, without their bases (unknown keys are left out). */
export async function objectRowsByKeys(db: Knex, keys: string[]): Promise<ObjectRow[]> {
  const unique = [...new Set(keys)];
  if (!unique.length) return [];
  return ObjectModel.query(db).whereIn('key', unique);
}

/** {@link objectRowsByKeys}, the rows locked until the transaction ends (in id order: concurrent claims never deadlock). */
export async function lockObjectRowsByKeys(trx: Knex.Transaction, keys: string[]): Promise<ObjectRow[]> {
  const unique = [...new Set(keys)];
  if (!unique.length) return [];
  return ObjectModel.query(trx).whereIn('key', unique).orderBy('id').forUpdate();
}

/** One object written to one column. */
export interface ObjectUse {
  objectId: string;
  columnId: string;
}

/**
 * Records that objects were written to columns of a table of a base: they are
 * referenced again. Run inside the claim's transaction, which has locked the
 * rows (and makes fresh uploads join the base).
 */
export async function recordUses(trx: Knex.Transaction, uses: ObjectUse[], where: { baseId: string; tableId: string }): Promise<void> {
  if (!uses.length) return;
  const rows = uses.map((u) => ({ object_id: u.objectId, base_id: where.baseId, table_id: where.tableId, column_id: u.columnId }));
  await ObjectUseModel.query(trx).insert(rows).onConflict(['object_id', 'table_id', 'column_id']).ignore();
  const ids = [...new Set(uses.map((u) => u.objectId))];
  await ObjectModel.query(trx).whereIn('id', ids).patch({ unreferenced_since: null });
}

/** The uses of some objects (which columns they were written to). */
export async function usesOfObjects(db: Knex, objectIds: string[]): Promise<{ object_id: string; table_id: string; column_id: string }[]> {
  if (!objectIds.length) return [];
  return ObjectUseModel.query(db).whereIn('object_id', objectIds).select('object_id', 'table_id', 'column_id');
}

/** Deletes an object's row if it has been unreferenced for longer than `graceSeconds`; true when deleted. */
export async function deleteIfUnreferenced(db: Knex, id: string, graceSeconds: number): Promise<boolean> {
  const gone = await ObjectModel.query(db).where({ id }).where('unreferenced_since', '<', db.raw('now() - make_interval(secs => ?)', [graceSeconds])).delete();
  return gone > 0;
}

/** A batch of objects in id order (the collector re-checks every object). */
export async function gcCandidates(db: Knex, limit: number, afterId?: string): Promise<ObjectRow[]> {
  const q = ObjectModel.query(db).orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return q;
}

/** Marks an object unreferenced (from now, unless it already was) or referenced. */
export async function markReferenced(db: Knex, id: string, referenced: boolean): Promise<void> {
  if (referenced) await ObjectModel.query(db).where({ id }).patch({ unreferenced_since: null });
  else await ObjectModel.query(db).where({ id }).whereNull('unreferenced_since').patch({ unreferenced_since: db.fn.now() as unknown as Date });
}

/** Drops the uses of an object that no longer hold it. */
export async function dropUse(db: Knex, objectId: string, tableId: string, columnId: string): Promise<void> {
  await ObjectUseModel.query(db).where({ object_id: objectId, table_id: tableId, column_id: columnId }).delete();
}

/** Deletes an object's metadata row. */
export async function deleteObject(db: Knex, id: string): Promise<void> {
  await ObjectModel.query(db).where({ id }).delete();
}
