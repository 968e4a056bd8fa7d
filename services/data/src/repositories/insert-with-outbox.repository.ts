import type { Knex } from 'knex';
import { canPrepare, queryPrepared, rawTemplate, type RawTemplate } from '@tabula/db';
import type { TableHandle } from '../context/table-handle';
import type { DbRow } from '../model/record-writer';
import type { SqlPart } from './record-json.sql';
import { rowsSource } from './record-insert.repository';
import type { Db } from './db';
import { perHandle } from './sql-cache';

/** The outbox row of the insert's event, all but the rows' JSON (appended by SQL). */
export interface OutboxHead {
  schema: string;
  id: string;
  topic: string;
  key: string;
  type: string;
  /** The event encoded without its rows field. */
  payloadPrefix: Uint8Array;
  /** Protobuf tag byte of the rows field (field number << 3 | 2). */
  rowsTag: number;
  headers: string;
}

/** What the one-statement insert writes. */
export interface InsertPlan {
  rows: DbRow[];
  /** The columns every row sets (uniformKeys). */
  keys: string[];
  /** `nextval` source for nc_order (order-sequence.ts). */
  orderSequence: string;
  orderColumn: string;
  /** The API record of an inserted row as SQL (record-json.sql.ts). */
  recordJson: SqlPart;
  event: OutboxHead;
}

/**
 * Inserts rows and the outbox row of their `records.after.insert` event in ONE
 * statement (a data-modifying CTE, atomic without BEGIN/COMMIT): the rows go in
 * as one JSON parameter with `nc_order` from the table's sequence, RETURNING
 * gives each row's API record as JSON (record-json.sql.ts), aggregated in
 * insertion order; the outbox payload is the JS-encoded event head followed by
 * that JSON (`pb_len_delimited`, migration 002). Answers the same JSON text (an
 * array of the API records): the response and the event share it, so the rows
 * are neither parsed column by column nor serialised again in JS.
 * The text comes back in pieces ({@link JSON_PART_BYTES} each, in order; see
 * {@link jsonPieces}), not as one value: a JS string over 128 kB lands in V8's
 * large-object space, whose pages are mapped fresh for every such string and
 * unmapped at the next GC. A 225 kB answer took 57 minor page faults (1.2 ms
 * on this machine) just to be decoded; pieces live in the young generation.
 * Default pg sources only (the outbox shares the rows' database). The text
 * depends only on the table and the columns set, so it runs as a named
 * prepared statement per column set (libs/db prepared.ts).
 */
export async function insertWithOutbox(db: Db, handle: TableHandle, plan: InsertPlan): Promise<string[]> {
  const ins = insertCte(handle, plan, plan.rows);
  const e = plan.event;
  const sql = `${ins.sql}, parts as (
    select ("__upto" - 1) / ${JSON_PART_BYTES} as "__part", string_agg("__record", ',' order by "__order") as p
    from (select "__record", "__order", sum(octet_length("__record") + 1) over (order by "__order") as "__upto" from ins) x
    group by 1
  ), agg as (
    select '[' || string_agg(p, ',' order by "__part") || ']' as j from parts
  ), ev as (
    insert into ??.outbox (id, topic, key, type, version, payload, headers)
    select ?, ?, ?, ?, 1, ?::bytea || ??.pb_len_delimited(?, convert_to(agg.j, 'UTF8')), ?::jsonb
    from agg where agg.j is not null
  )
  select p from parts order by "__part"`;
  const bindings: Knex.RawBinding[] = [
    ...ins.bindings, e.schema, e.id, e.topic, e.key, e.type, prefixBytes(e), e.schema, e.rowsTag, e.headers,
  ];
  const key = `${plan.keys.join('\u0000')}\u0001${ins.shared.join('\u0000')}\u0001${plan.orderColumn}\u0001${plan.recordJson.sql}`;
  const parts = await runStatement<{ p: string }>(db, handle, key, sql, bindings);
  return jsonPieces(parts.map((r) => r.p));
}

/**
 * Bytes of records per piece of {@link insertWithOutbox}'s answer: a piece
 * stays under V8's large-object threshold (128 kB) even as a two-byte string
 * (non-Latin-1 text) unless one record alone is bigger.
 */
export const JSON_PART_BYTES = 49_152;

/** The pieces of the array text `[p0,p1,…]` from its comma-joined parts, one per part (`[]` without any). */
export function jsonPieces(parts: string[]): string[] {
  if (!parts.length) return ['[]'];
  const pieces = parts.map((part, i) => (i ? ',' : '[') + part);
  pieces[pieces.length - 1] += ']';
  return pieces;
}

/**
 * Several single-row inserts of one table setting the same columns, each with
 * its own `records.after.insert` event, in ONE statement: the rows go in as
 * one JSON parameter, each row's API record comes back in input order, and
 * each event's outbox row pairs its head (id, key, type, payload prefix,
 * headers: arrays, one element per insert) with its own row's record
 * (`[record]`, the rows field of a one-row event). Atomic like
 * {@link insertWithOutbox}: all rows and events commit together or none do.
 * Answers each insert's JSON text (`[record]`), in input order. `plans` share
 * keys, order column, record SQL, outbox schema and rows tag (the batcher's key).
 */
export async function insertBatchWithOutbox(db: Db, handle: TableHandle, plans: InsertPlan[]): Promise<string[]> {
  const first = plans[0];
  const ins = insertCte(handle, first, plans.map((p) => p.rows[0]));
  const sql = `${ins.sql}, numbered as (
    select "__record", row_number() over (order by "__order") as n from ins
  ), ev as (
    insert into ??.outbox (id, topic, key, type, version, payload, headers)
    select h.id::uuid, h.topic, h.key, h.type, 1, h.prefix || ??.pb_len_delimited(?, convert_to('[' || numbered."__record" || ']', 'UTF8')), h.headers::jsonb
    from numbered join unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::text[]) with ordinality as h(id, topic, key, type, prefix, headers, n)
      on h.n = numbered.n
  )
  select "__record" as r from numbered order by n`;
  const heads = plans.map((p) => p.event);
  const bindings = [
    ...ins.bindings, first.event.schema, first.event.schema, first.event.rowsTag,
    heads.map((e) => e.id), heads.map((e) => e.topic), heads.map((e) => e.key), heads.map((e) => e.type), heads.map(prefixBytes), heads.map((e) => e.headers),
  ] as Knex.RawBinding[];
  const out = await runStatement<{ r: string }>(db, handle, `batch\u0001${ins.shared.join('\u0000')}\u0001${batchKeyOf(first)}`, sql, bindings);
  if (out.length !== plans.length) throw new Error(`batched insert returned ${out.length} rows for ${plans.length}`);
  return out.map((row) => `[${row.r}]`);
}

/**
 * The `ins` CTE both insert statements start with: `rows` (setting
 * `plan.keys`) inserted with `nc_order` from the table's sequence, in input
 * order, RETURNING each row's order and API record as JSON.
 */
function insertCte(handle: TableHandle, plan: InsertPlan, rows: DbRow[]): { sql: string; bindings: Knex.RawBinding[]; shared: string[] } {
  const t = handle.source.schema ? [handle.source.schema, handle.model.context.table.table_name] : [handle.model.context.table.table_name];
  const tableSql = t.map(() => '??').join('.');
  const list = plan.keys.map(() => '??').join(', ');
  const src = rowsSource(handle, rows, plan.keys, t);
  return {
    sql: `with ins as (
    insert into ${tableSql} (${list}, ??) select ${src.select}, nextval(?::regclass) from ${src.from}
      order by ${src.order} returning ?? as "__order", ${plan.recordJson.sql} as "__record"
  )`,
    bindings: [
      ...t, ...plan.keys, plan.orderColumn, ...src.selectBindings, plan.orderSequence, ...src.fromBindings,
      plan.orderColumn, ...(plan.recordJson.bindings as Knex.RawBinding[]),
    ],
    shared: src.shared,
  };
}

/** The event head encoded without its rows, as the bytea parameter. */
function prefixBytes(e: OutboxHead): Buffer {
  return Buffer.from(e.payloadPrefix.buffer, e.payloadPrefix.byteOffset, e.payloadPrefix.byteLength);
}

/** Runs an insert statement: a named prepared statement per `key` where the source allows, else plain. */
async function runStatement<R>(db: Db, handle: TableHandle, key: string, sql: string, bindings: Knex.RawBinding[]): Promise<R[]> {
  const perConnection = handle.source.preparedPerConnection;
  if (perConnection > 0 && canPrepare(db)) {
    const template = templateOf(db as Knex, handle, key, sql, bindings);
    return queryPrepared<R>(db as Knex, template.statement, template.values(bindings), perConnection);
  }
  return (await db.raw(sql, bindings)).rows as R[];
}

/** What single-row plans must share to go into one {@link insertBatchWithOutbox} statement. */
export function batchKeyOf(plan: InsertPlan): string {
  return `${plan.keys.join('\u0000')}\u0001${plan.orderColumn}\u0001${plan.orderSequence}\u0001${plan.recordJson.sql}\u0001${plan.event.schema}\u0001${plan.event.rowsTag}`;
}

/** Compiled insert statements per table handle (a new handle after a metadata change starts empty). */
const MAX_TEMPLATES_PER_TABLE = 64;
const templates = new WeakMap<TableHandle, Map<string, RawTemplate>>();

function templateOf(db: Knex, handle: TableHandle, key: string, sql: string, bindings: Knex.RawBinding[]): RawTemplate {
  return perHandle(templates, handle, key, MAX_TEMPLATES_PER_TABLE, () => rawTemplate(db, sql, bindings));
}
