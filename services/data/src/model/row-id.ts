import { AppError, appError } from '@tabula/http';
import type { ColumnInfo } from '@tabula/contracts';
import { isIntegerKeyUidt } from '@tabula/query';
import type { TableModel } from './table-model';

/** A primary-key lookup: physical column name → value. */
export type KeyWhere = Record<string, string | number>;

/** 404 ERR_RECORD_NOT_FOUND for a row id. */
export function recordNotFound(rowId: unknown): AppError {
  return appError('ERR_RECORD_NOT_FOUND', `Record '${String(rowId)}' not found`);
}

/** Splits a composite `{rowId}`: parts joined with `___`, `_` inside a part written `\_`. */
export function splitRowId(rowId: string): string[] {
  const marker = '\u0000';
  return rowId.replace(/\\_/g, marker).split('___').map((p) => p.split(marker).join('_'));
}

/** The value of a key part for its column; undefined when it cannot match (an integer key never matches text). */
function keyValue(column: ColumnInfo, raw: unknown): string | number | undefined {
  if (raw === null || raw === undefined || typeof raw === 'object' || typeof raw === 'boolean') return undefined;
  const numeric = column.uidt === 'ID' && !/char|text|uuid|string/i.test(column.dt ?? '') || isIntegerKeyUidt(column.uidt);
  if (!numeric) return String(raw);
  const n = typeof raw === 'number' ? raw : /^-?\d{1,16}$/.test(String(raw).trim()) ? Number(String(raw).trim()) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The primary-key where of a `{rowId}` path segment, or undefined when it cannot
 * name a row of this table (wrong part count or type): the caller answers 404
 * (read/update) or 0 (delete), never a database error.
 */
export function parseRowId(model: TableModel, rowId: string): KeyWhere | undefined {
  const parts = model.primaryKeys.length > 1 ? splitRowId(rowId) : [rowId];
  return keyFromValues(model, parts);
}

/**
 * NocoDB's v2 and v3 answer for a record id that is no value of a single
 * primary key's type (`abc` for an integer key): 422 ERR_INVALID_PK_VALUE.
 * v1 answers it as a missing record (its specification's rule).
 */
export function checkPkValue(model: TableModel, rowId: string): void {
  if (model.primaryKeys.length === 1 && !parseRowId(model, rowId)) {
    throw appError('ERR_INVALID_PK_VALUE', `Primary key value '${rowId}' is invalid for column '${model.primaryKeys[0].title}'`);
  }
}

/** The key where of a body's primary-key values (bulk update/delete/upsert), or undefined when missing. */
export function keyOfBody(model: TableModel, body: Record<string, unknown>): KeyWhere | undefined {
  const values = model.primaryKeys.map((pk) => body[pk.title] ?? body[pk.column_name] ?? body[pk.id]);
  return keyFromValues(model, values);
}

function keyFromValues(model: TableModel, values: unknown[]): KeyWhere | undefined {
  if (values.length !== model.primaryKeys.length) return undefined;
  const where: KeyWhere = {};
  for (const [i, pk] of model.primaryKeys.entries()) {
    const v = keyValue(pk, values[i]);
    if (v === undefined) return undefined;
    where[pk.column_name] = v;
  }
  return where;
}

/** The `{rowId}` text of a stored row (composite parts joined with `___`). */
export function rowIdOf(model: TableModel, row: Record<string, unknown>): string {
  if (model.primaryKeys.length === 1) return String(row[model.primaryKeys[0].column_name]);
  return model.primaryKeys.map((pk) => String(row[pk.column_name]).replace(/_/g, '\\_')).join('___');
}
