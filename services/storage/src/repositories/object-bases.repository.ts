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

/** One copied table: source and copy ids, and its columns' (source → copy). */
export interface CopiedTable {
  from: string;
  to: string;
  columns: Record<string, string>;
}

/**
 * Every object of base `from` joins base `to`, and each use of a copied
 * column (source table and column) is recorded for the copy's column too.
 * Answers how many objects the source base has.
 */
export async function shareBase(trx: Knex.Transaction, from: string, to: string, tables: CopiedTable[]): Promise<number> {
  const s = STORAGE_SCHEMA;
  await trx.raw('INSERT INTO ??.object_bases (object_id, base_id) SELECT object_id, ? FROM ??.object_bases WHERE base_id = ? ON CONFLICT DO NOTHING', [s, to, s, from]);
  const pairs = tables.flatMap((t) => Object.entries(t.columns).map(([fromColumn, toColumn]) => [t.from, fromColumn, t.to, toColumn]));
  if (pairs.length) {
    const column = (i: number) => pairs.map((p) => p[i]);
    await trx.raw(`INSERT INTO ??.object_uses (object_id, base_id, table_id, column_id)
      SELECT u.object_id, ?, m.to_table, m.to_column FROM ??.object_uses u
      JOIN unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS m(from_table, from_column, to_table, to_column)
        ON m.from_table = u.table_id AND m.from_column = u.column_id
      ON CONFLICT DO NOTHING`, [s, to, s, column(0), column(1), column(2), column(3)]);
  }
  const counted = await ObjectBaseModel.query(trx).where({ base_id: from }).count({ n: '*' }).first() as unknown as { n: string | number } | undefined;
  return Number(counted?.n ?? 0);
}
