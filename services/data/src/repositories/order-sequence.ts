import type { TableHandle } from '../context/table-handle';
import { DATA_SCHEMA } from '../events/records-event.producer';
import type { Db } from './db';

const SAFE_ID = /^[a-z0-9_]{1,56}$/;
/** Per database (knex pool): tables whose sequence this process has created and seeded (bounded: cleared when full). */
const seededIn = new WeakMap<Db, Set<string>>();
const MAX_SEEDED = 10_000;

function seededOf(db: Db): Set<string> {
  let set = seededIn.get(db);
  if (!set) {
    set = new Set();
    seededIn.set(db, set);
  }
  return set;
}

/** The name of a table's nc_order sequence in the data schema, or undefined when its id is not a plain identifier. */
export function orderSequenceName(tableId: string): string | undefined {
  return SAFE_ID.test(tableId) ? `nco_${tableId}` : undefined;
}

/** `schema.sequence` text for `nextval(?::regclass)` (quoted: made from a validated id). */
export function orderSequenceRef(tableId: string): string | undefined {
  const name = orderSequenceName(tableId);
  return name ? `"${DATA_SCHEMA}"."${name}"` : undefined;
}

/**
 * New rows' `nc_order` comes from a sequence per table (`data.nco_<tableId>`,
 * in the data database next to the outbox), so an insert takes no `max()` and
 * concurrent inserts never share a value. The first insert a process makes into
 * a table creates the sequence if missing and lifts it past the table's
 * largest `nc_order` (rows written before the sequence existed, or by other
 * means); later inserts only call `nextval` inside their INSERT.
 * Only for default pg sources (the sequence must live in the rows' database).
 */
export async function ensureOrderSequence(db: Db, handle: TableHandle): Promise<string | undefined> {
  const ref = orderSequenceRef(handle.tableId);
  const col = handle.model.orderColumn?.column_name;
  if (!ref || !col) return undefined;
  const seeded = seededOf(db);
  if (seeded.has(handle.tableId)) return ref;
  const name = orderSequenceName(handle.tableId) as string;
  try {
    await db.raw('create sequence if not exists ??.?? as bigint', [DATA_SCHEMA, name]);
  } catch (err) {
    // Two processes creating it at once: one wins, the other sees a duplicate (the sequence exists: fine).
    if (!['23505', '42P07'].includes((err as { code?: string }).code ?? '')) throw err;
  }
  const table = handle.source.schema ? '??.??' : '??';
  const tableBindings = handle.source.schema ? [handle.source.schema, handle.model.context.table.table_name] : [handle.model.context.table.table_name];
  await db.raw(
    `select setval(?::regclass, greatest((select coalesce(ceil(max(??)), 0)::bigint from ${table}),
       (select case when is_called then last_value else 0 end from ??.??), 1), true)`,
    [ref, col, ...tableBindings, DATA_SCHEMA, name],
  );
  if (seeded.size >= MAX_SEEDED) seeded.clear();
  seeded.add(handle.tableId);
  return ref;
}

/** Drops a deleted table's sequence (meta.table.deleted). */
export async function dropOrderSequence(db: Db, tableId: string): Promise<void> {
  const name = orderSequenceName(tableId);
  seededOf(db).delete(tableId);
  if (name) await db.raw('drop sequence if exists ??.??', [DATA_SCHEMA, name]);
}
