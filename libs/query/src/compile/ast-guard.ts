import { parseDateValue } from '../filter/date-value';
import type { Scalar } from '../filter/filter.types';
import { QueryError } from '../query-error';

/** 422 for an AST the compiler cannot use (hand-built or tampered with). */
export function invalidAst(reason: string): QueryError {
  return QueryError.invalidFilter(`Invalid filter: ${reason}`);
}

/** A normalised date value of the AST, re-validated. */
export function astDate(value: unknown): string {
  const date = typeof value === 'string' ? parseDateValue(value) : undefined;
  if (!date) throw invalidAst('invalid date value');
  return date;
}

/** A day count of the AST, re-validated. */
export function astDays(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 100_000) {
    throw invalidAst('invalid number of days');
  }
  return value;
}

/** The AST value as a list of scalars. */
export function astList(value: unknown): Scalar[] {
  if (!Array.isArray(value)) throw invalidAst('a list value is expected');
  return value.filter((v): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v));
}

const TYPED_OPS = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notin', 'btw', 'nbtw']);

/** Values of number columns must be numbers and of checkbox columns booleans (the resolver guarantees it). */
export function assertValueTypes(value: unknown, kind: string, op: string): void {
  const expected = kind === 'number' ? 'number' : kind === 'checkbox' ? 'boolean' : undefined;
  if (!expected || value === null || value === undefined || !TYPED_OPS.has(op)) return;
  const values = Array.isArray(value) ? value : [value];
  if (values.some((v) => typeof v !== expected)) throw invalidAst(`a ${expected} value is expected`);
}
