import type { Knex } from 'knex';
import { BaseModel } from '@tabula/db';
import { STORAGE_SCHEMA, lockObjectRowsByKeys, objectRowsByKeys, type ObjectRow } from './object.repository';

/** A base an object belongs to (`storage.object_bases`). */
export class ObjectBaseModel extends BaseModel {
  static override tableName = `${STORAGE_SCHEMA}.object_bases`;
  static override idColumn = ['object_id', 'base_id'];

  declare object_id: string;
  declare base_id: string;
}

/** An object with the bases it belongs to (none: a fresh upload, its uploader's alone). */
export type StoredObject = ObjectRow & { bases: string[] };

async function withBases(db: Knex, rows: ObjectRow[]): Promise<Map<string, StoredObject>> {
  const links = rows.length ? await ObjectBaseModel.query(db).whereIn('object_id', rows.map((r) => r.id)).orderBy('base_id') : [];
  const basesOf = new Map<string, string[]>();
  for (const link of links) basesOf.set(link.object_id, [...(basesOf.get(link.object_id) ?? []), link.base_id]);
  return new Map(rows.map((r) => [r.key, { ...r, bases: basesOf.get(r.id) ?? [] }]));
}

/** Objects by key with their bases (unknown keys are absent from the map). */
export async function objectsByKeys(db: Knex, keys: string[]): Promise<Map<string, StoredObject>> {
  return withBases(db, await objectRowsByKeys(db, keys));
}

/**
 * {@link objectsByKeys}, the object rows locked until the transaction ends.
 * The bases are read after the lock is held (a statement of its own), so a
 * claim that waited for another sees the bases that one committed.
 */
export async function lockObjectsByKeys(trx: Knex.Transaction, keys: string[]): Promise<Map<string, StoredObject>> {
  return withBases(trx, await lockObjectRowsByKeys(trx, keys));
}

/** Makes objects belong to a base (those already in it stay as they are). */
export async function joinBase(db: Knex, objectIds: string[], baseId: string): Promise<void> {
  const ids = [...new Set(objectIds)];
  if (!ids.length) return;
  await ObjectBaseModel.query(db).insert(ids.map((id) => ({ object_id: id, base_id: baseId }))).onConflict(['object_id', 'base_id']).ignore();
}

/** Files and bytes of a base. */
export async function baseUsage(db: Knex, baseId: string): Promise<{ files: number; bytes: number }> {
  const row = await db.withSchema(STORAGE_SCHEMA).from('objects as o').join('object_bases as b', 'b.object_id', 'o.id').where('b.base_id', baseId)
    .first(db.raw('count(*)::int as files'), db.raw('coalesce(sum(o.size), 0)::bigint as bytes')) as { files?: number | string; bytes?: number | string } | undefined;
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}
