import { randomUUID } from 'node:crypto';
import { appError } from '@tabula/http';
import type { ColumnInfo } from '@tabula/contracts';
import { coerceValue } from '../values/value.coercer';
import { requiredMissing, systemColumnWrite } from '../values/value-errors';
import { utcText } from '../values/date.coercers';
import { isAutoColumn, isCreatedAt, isUpdatedAt } from './column-roles';
import { formulaPlanOf } from './formula-columns';
import { linkPlanOf } from './link-columns';
import { relationPlanOf } from './relation-columns';
import type { TableModel } from './table-model';

/** A row as written to the database: physical column name → stored value. */
export type DbRow = Record<string, unknown>;

/** Options of {@link toDbRow}. */
export interface WriteOptions {
  mode: 'insert' | 'update';
  now: Date;
  /** Bulk update/upsert bodies carry the key: read it, never write it. */
  allowKeys?: boolean;
  /** The writing user, stamped into created_by / updated_by. */
  userId?: string;
}

/**
 * Maps a client body (keys: title, column name or id) to the stored row:
 * unknown keys ignored, auto/system columns refused (400), values coerced per
 * uidt (400 naming the column), required columns checked (422), timestamps and users stamped.
 */
export function toDbRow(model: TableModel, body: unknown, options: WriteOptions): DbRow {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw appError('ERR_INVALID_REQUEST_BODY', 'A record must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const row: DbRow = {};
  for (const key of Object.keys(fields)) {
    const column = model.byKey.get(key);
    if (!column) continue;
    if (column.pk && options.allowKeys) continue;
    const facts = writeFactsOf(column);
    // Computed values are read-only: clients that send back a whole record (n8n, scripts) are not refused.
    if (facts.computed) continue;
    if (facts.auto) throw systemColumnWrite(column.title);
    const value = coerceValue(column, fields[key]);
    if (value === null && column.rqd && !(options.mode === 'insert' && facts.hasDefault)) throw requiredMissing(column.title);
    row[column.column_name] = value;
  }
  if (options.mode === 'insert') checkRequired(model, row);
  stampTimes(model, row, options);
  return row;
}

/** What writing a column needs to know, computed once per column (a bulk body repeats it per row). */
interface WriteFacts {
  /** Formula, link, lookup or rollup: computed by SELECT, never written. */
  computed: boolean;
  /** System or auto column: a client may not set it. */
  auto: boolean;
  hasDefault: boolean;
}

const facts = new WeakMap<ColumnInfo, WriteFacts>();

function writeFactsOf(column: ColumnInfo): WriteFacts {
  let known = facts.get(column);
  if (!known) {
    known = {
      computed: !!(formulaPlanOf(column) || linkPlanOf(column) || relationPlanOf(column)),
      auto: isAutoColumn(column),
      hasDefault: hasDefault(column),
    };
    facts.set(column, known);
  }
  return known;
}

function hasDefault(column: ColumnInfo): boolean {
  return column.cdf !== null && column.cdf !== undefined && column.cdf !== '';
}

/** A timestamp column and whether its type keeps a zone (stamped with `+00:00`). */
interface Stamped {
  column_name: string;
  zoned: boolean;
}

/** Per-table write facts, computed once per model (bulk bodies reuse them for every row). */
interface WritePlan {
  required: ColumnInfo[];
  /** Stamped with `now` on insert (created and updated times) and on update (updated times). */
  insertTimes: Stamped[];
  updateTimes: Stamped[];
  /** Stamped with the writing user on insert (created and updated by) and on update (updated by). */
  insertUsers: string[];
  updateUsers: string[];
  /** UUID columns: filled on insert (every dialect; PostgreSQL's column default is not the only writer). */
  uuids: string[];
  /** insertTimes and insertUsers as one set ({@link insertStampedColumns}). */
  insertStamped?: Set<string>;
}

const plans = new WeakMap<TableModel, WritePlan>();

function planOf(model: TableModel): WritePlan {
  let plan = plans.get(model);
  if (!plan) {
    const stamped = (c: ColumnInfo): Stamped => ({ column_name: c.column_name, zoned: /tz|with time zone/i.test(c.dt ?? '') });
    const createdTimes = model.columns.filter((c) => isCreatedAt(c) && !isUpdatedAt(c)).map(stamped);
    const updatedTimes = model.columns.filter((c) => isUpdatedAt(c)).map(stamped);
    const createdBy = model.columns.filter((c) => c.uidt === 'CreatedBy').map((c) => c.column_name);
    const updatedBy = model.columns.filter((c) => c.uidt === 'LastModifiedBy').map((c) => c.column_name);
    plan = {
      required: model.columns.filter((c) => c.rqd && !isAutoColumn(c) && !hasDefault(c)),
      insertTimes: [...createdTimes, ...updatedTimes], updateTimes: updatedTimes,
      insertUsers: [...createdBy, ...updatedBy], updateUsers: updatedBy,
      uuids: model.columns.filter((c) => c.uidt === 'UUID').map((c) => c.column_name),
    };
    plans.set(model, plan);
  }
  return plan;
}

/**
 * Columns {@link toDbRow} stamps on insert (created/updated time and user):
 * one request stamps every row with the same values.
 */
export function insertStampedColumns(model: TableModel): ReadonlySet<string> {
  const plan = planOf(model);
  plan.insertStamped ??= new Set([...plan.insertTimes.map((t) => t.column_name), ...plan.insertUsers]);
  return plan.insertStamped;
}

function checkRequired(model: TableModel, row: DbRow): void {
  for (const c of planOf(model).required) {
    if (row[c.column_name] === undefined || row[c.column_name] === null) throw requiredMissing(c.title);
  }
}

/** The last stamp formatted: a bulk request stamps every row with the same `now`. */
let lastStamp: { now: Date; text: string; zoned: string } | undefined;

function stampTimes(model: TableModel, row: DbRow, options: WriteOptions): void {
  const plan = planOf(model);
  const times = options.mode === 'insert' ? plan.insertTimes : plan.updateTimes;
  if (options.mode === 'insert') for (const name of plan.uuids) row[name] ??= randomUUID();
  if (times.length) {
    if (lastStamp?.now !== options.now) {
      const text = utcText(options.now);
      lastStamp = { now: options.now, text, zoned: `${text}+00:00` };
    }
    for (const c of times) row[c.column_name] = c.zoned ? lastStamp.zoned : lastStamp.text;
  }
  if (!options.userId) return;
  for (const name of options.mode === 'insert' ? plan.insertUsers : plan.updateUsers) row[name] = options.userId;
}
