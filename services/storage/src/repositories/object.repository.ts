import type { Knex } from 'knex';

/** The storage service's schema. */
export const STORAGE_SCHEMA = 'storage';

/** A stored object's metadata row. */
export interface ObjectRow {
  id: string;
  key: string;
  title: string;
  mimetype: string;
  size: number;
  checksum: string;
  scope: 'public' | 'private';
  backend: 'local' | 's3';
  uploaded_by: string | null;
  base_id: string | null;
  created_at: Date;
  unreferenced_since: Date | null;
}

const objects = (db: Knex) => db.withSchema(STORAGE_SCHEMA).table('objects');
const uses = (db: Knex) => db.withSchema(STORAGE_SCHEMA).table('object_uses');

function fromDb(row: Record<string, unknown>): ObjectRow {
  return { ...(row as unknown as ObjectRow), size: Number(row.size) };
}

/** Records a stored object. */
export async function insertObject(db: Knex, row: Omit<ObjectRow, 'created_at' | 'unreferenced_since'>): Promise<void> {
  await objects(db).insert(row);
}

/** Objects by key (unknown keys are absent from the map). */
export async function objectsByKeys(db: Knex, keys: string[]): Promise<Map<string, ObjectRow>> {
  const unique = [...new Set(keys)];
  if (!unique.length) return new Map();
  const rows = await objects(db).whereIn('key', unique);
  return new Map(rows.map((r: Record<string, unknown>) => [r.key as string, fromDb(r)]));
}

/** Records that objects were written to a column (and to its base); they are referenced again. */
export async function recordUses(db: Knex, objectIds: string[], use: { baseId: string; tableId: string; columnId: string }): Promise<void> {
  if (!objectIds.length) return;
  await db.transaction(async (trx) => {
    await uses(trx).insert(objectIds.map((id) => ({ object_id: id, base_id: use.baseId, table_id: use.tableId, column_id: use.columnId })))
      .onConflict(['object_id', 'table_id', 'column_id']).ignore();
    await objects(trx).whereIn('id', objectIds).update({ unreferenced_since: null, base_id: trx.raw('coalesce(base_id, ?)', [use.baseId]) });
  });
}

/** Files and bytes of a base. */
export async function baseUsage(db: Knex, baseId: string): Promise<{ files: number; bytes: number }> {
  const row = await objects(db).where({ base_id: baseId }).first(db.raw('count(*)::int as files'), db.raw('coalesce(sum(size), 0)::bigint as bytes'));
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** The uses of some objects (which columns they were written to). */
export async function usesOfObjects(db: Knex, objectIds: string[]): Promise<{ object_id: string; table_id: string; column_id: string }[]> {
  if (!objectIds.length) return [];
  return uses(db).whereIn('object_id', objectIds).select('object_id', 'table_id', 'column_id');
}

/** Deletes an object's row if it has been unreferenced for longer than `graceSeconds`; true when deleted. */
export async function deleteIfUnreferenced(db: Knex, id: string, graceSeconds: number): Promise<boolean> {
  const gone = await objects(db).where({ id }).where('unreferenced_since', '<', db.raw('now() - make_interval(secs => ?)', [graceSeconds])).delete();
  return gone > 0;
}

/** A batch of objects in id order (the collector re-checks every object). */
export async function gcCandidates(db: Knex, limit: number, afterId?: string): Promise<ObjectRow[]> {
  const q = objects(db).orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return (await q).map(fromDb);
}

/** Marks an object unreferenced (from now, unless it already was) or referenced. */
export async function markReferenced(db: Knex, id: string, referenced: boolean): Promise<void> {
  if (referenced) await objects(db).where({ id }).update({ unreferenced_since: null });
  else await objects(db).where({ id }).whereNull('unreferenced_since').update({ unreferenced_since: db.fn.now() });
}

/** Drops the uses of an object that no longer hold it. */
export async function dropUse(db: Knex, objectId: string, tableId: string, columnId: string): Promise<void> {
  await uses(db).where({ object_id: objectId, table_id: tableId, column_id: columnId }).delete();
}

/** Deletes an object's metadata row. */
export async function deleteObject(db: Knex, id: string): Promise<void> {
  await objects(db).where({ id }).delete();
}
