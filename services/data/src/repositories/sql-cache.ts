import type { Knex } from 'knex';
import { canPrepare, prepareStatement, queryPrepared, type PreparedStatement } from '@tabula/db';
import type { TableHandle } from '../context/table-handle';
import { formulaPlanOf } from '../model/formula-columns';
import { linkPlanOf } from '../model/link-columns';
import { relationPlanOf } from '../model/relation-columns';
import type { Db } from './db';

/** A compiled statement: SQL text with `?` placeholders and its bindings. */
export interface CompiledSql {
  sql: string;
  bindings: Knex.RawBinding[];
  /** The same text as a named statement (PostgreSQL default sources, outside transactions). */
  prepared?: PreparedStatement;
}

/** Statements kept per table handle (a handle is replaced when its metadata changes, dropping them all). */
const MAX_PER_TABLE = 256;
const cache = new WeakMap<TableHandle, Map<string, CompiledSql>>();

/**
 * The value kept for `key` under a table handle, made by `make` on first use;
 * at most `max` per handle (the oldest goes first). A new handle (metadata
 * changed) starts empty, and a dropped handle takes its values with it.
 */
export function perHandle<V>(store: WeakMap<TableHandle, Map<string, V>>, handle: TableHandle, key: string, max: number, make: () => V): V {
  let entries = store.get(handle);
  if (!entries) {
    entries = new Map();
    store.set(handle, entries);
  }
  let value = entries.get(key);
  if (value === undefined) {
    value = make();
    if (entries.size >= max) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
  }
  return value;
}
const plain = new WeakMap<TableHandle, boolean>();

/**
 * True when the table has no computed columns: its compiled SQL holds only
 * quoted identifiers and `?` placeholders (computed columns bring raw SQL whose
 * escaped `\?` would not survive a second pass through knex.raw).
 */
function cacheable(handle: TableHandle): boolean {
  let ok = plain.get(handle);
  if (ok === undefined) {
    ok = !handle.model.columns.some((c) => formulaPlanOf(c) || linkPlanOf(c) || relationPlanOf(c));
    plain.set(handle, ok);
  }
  return ok;
}

/**
 * Runs a read through a per-table cache of compiled SQL text: `key` must
 * determine the statement and its bindings completely (callers build it from
 * everything the builder reads). The first request of a key compiles it with
 * knex; later ones skip the query builder and send the same text through
 * `knex.raw` (still bound parameters) or, on a PostgreSQL default source outside
 * a transaction, as a named prepared statement (libs/db prepared.ts: parsed and
 * planned once per connection). Tables with computed columns always compile.
 */
export async function cachedRead<T>(db: Db, handle: TableHandle, key: string, build: () => Knex.QueryBuilder): Promise<T[]> {
  if (!cacheable(handle)) return (await build()) as T[];
  const hit = perHandle(cache, handle, key, MAX_PER_TABLE, () => {
    const compiled = build().toSQL();
    return { sql: compiled.sql, bindings: compiled.bindings as Knex.RawBinding[] };
  });
  return run<T>(db, handle, hit, hit.bindings);
}

/**
 * The same, for statements whose only varying part is the last binding (a
 * primary key value): the text is compiled once per `key` with a stand-in value.
 */
export async function cachedReadWithLast<T>(db: Db, handle: TableHandle, key: string, last: Knex.RawBinding, build: (value: Knex.RawBinding) => Knex.QueryBuilder): Promise<T[]> {
  if (!cacheable(handle)) return (await build(last)) as T[];
  const hit = perHandle(cache, handle, key, MAX_PER_TABLE, () => {
    const compiled = build(last).toSQL();
    return { sql: compiled.sql, bindings: (compiled.bindings as Knex.RawBinding[]).slice(0, -1) };
  });
  return run<T>(db, handle, hit, [...hit.bindings, last]);
}

/** Runs a cached statement: named on a PostgreSQL default source's pool, through `knex.raw` elsewhere. */
async function run<T>(db: Db, handle: TableHandle, hit: CompiledSql, bindings: Knex.RawBinding[]): Promise<T[]> {
  const perConnection = handle.source.preparedPerConnection;
  if (perConnection > 0 && canPrepare(db)) {
    hit.prepared ??= prepareStatement(db as Knex, hit.sql);
    return queryPrepared<T>(db as Knex, hit.prepared, bindings, perConnection);
  }
  return rowsOf<T>(await db.raw(hit.sql, bindings));
}

/** Rows of a raw result, per dialect (pg: `.rows`; mysql2: `[rows, fields]`; sqlite3: the array). */
function rowsOf<T>(res: unknown): T[] {
  if (Array.isArray(res)) return (Array.isArray(res[0]) ? res[0] : res) as T[];
  return ((res as { rows?: T[] }).rows ?? []) as T[];
}
