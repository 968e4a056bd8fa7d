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
  const row: DbRow = {};
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const column = model.byKey.get(key);
    if (!column) continue;
    if (column.pk && options.allowKeys) continue;
    // Computed values are read-only: clients that send back a whole record (n8n, scripts) are not refused.
    if (formulaPlanOf(column) || linkPlanOf(column) || relationPlanOf(column)) continue;
    if (isAutoColumn(column)) throw systemColumnWrite(column.title);
    const value = coerceValue(column, raw);
    if (value === null && column.rqd && !(options.mode === 'insert' && hasDefault(column))) throw requiredMissing(column.title);
    row[column.column_name] = value;
  }
  if (options.mode === 'insert') checkRequired(model, row);
  stampTimes(model, row, options);
  return row;
}

function hasDefault(column: ColumnInfo): boolean {
  return column.cdf !== null && column.cdf !== undefined && column.cdf !== '';
}

/** Per-table write facts, computed once per model (bulk bodies reuse them for every row). */
interface WritePlan {
  required: ColumnInfo[];
  createdTimes: ColumnInfo[];
  updatedTimes: ColumnInfo[];
  createdBy: ColumnInfo[];
  updatedBy: ColumnInfo[];
}

const plans = new WeakMap<TableModel, WritePlan>();

function planOf(model: TableModel): WritePlan {
  let plan = plans.get(model);
  if (!plan) {
    plan = {
      required: model.columns.filter((c) => c.rqd && !isAutoColumn(c) && !hasDefault(c)),
      createdTimes: model.columns.filter((c) => isCreatedAt(c) && !isUpdatedAt(c)),
      updatedTimes: model.columns.filter((c) => isUpdatedAt(c)),
      createdBy: model.columns.filter((c) => c.uidt === 'CreatedBy'),
      updatedBy: model.columns.filter((c) => c.uidt === 'LastModifiedBy'),
    };
    plans.set(model, plan);
  }
  return plan;
}

function checkRequired(model: TableModel, row: DbRow): void {
  for (const c of planOf(model).required) {
    if (row[c.column_name] === undefined || row[c.column_name] === null) throw requiredMissing(c.title);
  }
}

/** The last stamp formatted: a bulk request stamps every row with the same `now`. */
let lastStamp: { now: Date; text: string } | undefined;

function stampText(column: ColumnInfo, now: Date): string {
  if (lastStamp?.now !== now) lastStamp = { now, text: utcText(now) };
  return /tz|with time zone/i.test(column.dt ?? '') ? `${lastStamp.text}+00:00` : lastStamp.text;
}

function stampTimes(model: TableModel, row: DbRow, options: WriteOptions): void {
  const plan = planOf(model);
  const times = options.mode === 'insert' ? [...plan.createdTimes, ...plan.updatedTimes] : plan.updatedTimes;
  for (const c of times) row[c.column_name] = stampText(c, options.now);
  if (!options.userId) return;
  const users = options.mode === 'insert' ? [...plan.createdBy, ...plan.updatedBy] : plan.updatedBy;
  for (const c of users) row[c.column_name] = options.userId;
}
