import { columnKind, type ColumnKind } from '../column/column-kind';
import type { ColumnMeta } from '../column/column.types';
import type { FilterCondition, FilterGroup, FilterNode } from '../filter/filter.types';
import { matchDate } from './filter-date.evaluator';

type Row = Record<string, unknown>;

/** SQL's three truth values: `undefined` is UNKNOWN (a comparison with NULL). */
type Truth = boolean | undefined;

/**
 * Evaluates a resolved filter AST (from `filterFromRows` or `parseWhere`) against
 * one row object keyed by column title (or column name), with the SQL
 * compiler's semantics, so a hook condition and a list `where` select the same
 * rows (the operator table of test/operators.*.test.ts runs on both):
 * `~and`/`~not` bind tighter than `~or`, comparisons with NULL are UNKNOWN
 * (and `~not` of UNKNOWN stays UNKNOWN), negative operators match NULL, `eq`
 * is case-sensitive and `like` is not, blank covers '' and empty JSON,
 * conditions without effect are skipped.
 */
export function matchesFilter(ast: FilterGroup, row: Row, columns: readonly ColumnMeta[], now = new Date()): boolean {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const result = evalGroup(ast, row, byId, now);
  return result === null ? true : result === true;
}

const not = (a: Truth): Truth => (a === undefined ? undefined : !a);
const and = (a: Truth, b: Truth): Truth => (a === false || b === false ? false : a === undefined || b === undefined ? undefined : true);
const or = (a: Truth, b: Truth): Truth => (a === true || b === true ? true : a === undefined || b === undefined ? undefined : false);

/** A group as the compiler writes it, `a OR b AND NOT c`: a disjunction of conjunctions; null when every child is skipped. */
function evalGroup(group: FilterGroup, row: Row, byId: Map<string, ColumnMeta>, now: Date): Truth | null {
  const terms: Truth[] = [];
  for (const child of group.children) {
    const value = evalNode(child, row, byId, now);
    if (value === null) continue;
    if (!terms.length) terms.push(child.logicalOp === 'not' ? not(value) : value);
    else if (child.logicalOp === 'or') terms.push(value);
    else terms[terms.length - 1] = and(terms[terms.length - 1], child.logicalOp === 'not' ? not(value) : value);
  }
  return terms.length ? terms.reduce(or) : null;
}

function evalNode(node: FilterNode, row: Row, byId: Map<string, ColumnMeta>, now: Date): Truth | null {
  if (node.type === 'group') return evalGroup(node, row, byId, now);
  const column = byId.get(node.columnId);
  if (!column) return null;
  const kind = columnKind(column);
  const value = column.title in row ? row[column.title] : row[column.column_name];
  const isDate = (kind === 'date' || kind === 'datetime') && DATE_OPS.has(node.op);
  const result = isDate ? matchDate(node, value, kind, now) : matchCondition(node, value, kind);
  if (result === null) return null;
  if ((value === null || value === undefined) && (isDate ? dateUnknownOnNull(node) : unknownOnNull(node, kind))) return undefined;
  return result;
}

/** Date conditions the compiler writes as a plain comparison: UNKNOWN on NULL (neq and notin add `OR col IS NULL`). */
function dateUnknownOnNull(cond: FilterCondition): boolean {
  if (cond.op === 'neq' || cond.op === 'notin') return false;
  if (cond.op === 'eq') return cond.subOp !== undefined || (cond.value !== null && cond.value !== undefined);
  if (cond.op === 'in') return list(cond.value).length > 0;
  return true;
}

/** Conditions the compiler writes as a plain comparison (`col = ?`, `col > ?`, `col LIKE ?`…): UNKNOWN on NULL. */
function unknownOnNull(cond: FilterCondition, kind: ColumnKind): boolean {
  const target = cond.value;
  switch (cond.op) {
    case 'eq': return target !== null && target !== undefined && (kind !== 'checkbox' || target === true);
    case 'neq': return kind === 'checkbox' && target !== null && target !== undefined && target !== true;
    case 'gt': case 'gte': case 'lt': case 'lte': case 'btw': case 'nbtw': case 'checked': return true;
    case 'like': return target !== '';
    case 'in': return list(target).length > 0;
    case 'is': return target === 'true';
    case 'isnot': return target === 'false';
    case 'anyof': case 'allof': return true;
    default: return false;
  }
}

const DATE_OPS = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'isWithin', 'in', 'notin', 'btw', 'nbtw']);

/** Blank as the SQL compiler defines it. */
export function isBlank(value: unknown, kind: ColumnKind): boolean {
  if (value === null || value === undefined) return true;
  if (kind === 'text') return value === '';
  if (kind === 'json') {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return ['', '[]', '{}', 'null'].includes(text);
  }
  return false;
}

function isChecked(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** The text SQL compares: documents as JSON, case kept (`eq` is case-sensitive like the compiler's). */
function asText(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function equals(value: unknown, target: unknown, kind: ColumnKind): boolean {
  if (value === null || value === undefined) return false;
  if (kind === 'number') return Number(value) === Number(target);
  if (kind === 'text' || kind === 'json') return asText(value) === asText(target);
  return String(value) === String(target);
}

function compare(value: unknown, target: unknown, kind: ColumnKind): number | null {
  if (value === null || value === undefined || target === null || target === undefined) return null;
  if (kind === 'number') return Number(value) - Number(target);
  const [a, b] = [String(value), String(target)];
  return a < b ? -1 : a > b ? 1 : 0;
}

function like(value: unknown, pattern: unknown): boolean {
  if (value === null || value === undefined) return false;
  const needle = String(pattern ?? '');
  if (needle === '') return true;
  const source = needle.includes('%') ? needle : `%${needle}%`;
  const regex = source.split('%').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${regex}$`, 'is').test(String(value));
}

function list(value: FilterCondition['value']): (string | number | boolean)[] {
  return Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
}

function options(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.map(String) : value === null || value === undefined ? [] : String(value).split(',');
  return raw.map((s) => s.trim().toLowerCase());
}

function membership(cond: FilterCondition, value: unknown): boolean | null {
  const items = list(cond.value).map((v) => String(v).toLowerCase()).filter((v) => v !== '');
  if (!items.length) return null;
  if (value === null || value === undefined) return cond.op === 'nanyof' || cond.op === 'nallof';
  const have = options(value);
  const any = items.some((i) => have.includes(i));
  const all = items.every((i) => have.includes(i));
  return { anyof: any, allof: all, nanyof: !any, nallof: !all }[cond.op as 'anyof'] ?? null;
}

function matchIs(arg: unknown, value: unknown, kind: ColumnKind): boolean {
  switch (arg) {
    case 'null': return value === null || value === undefined;
    case 'notnull': return value !== null && value !== undefined;
    case 'blank': return isBlank(value, kind);
    case 'notblank': return !isBlank(value, kind);
    case 'true': return isChecked(value);
    default: return !isChecked(value);
  }
}

/** One non-date condition; null when it adds no constraint. */
function matchCondition(cond: FilterCondition, value: unknown, kind: ColumnKind): boolean | null {
  const nullish = value === null || value === undefined;
  const target = cond.value;
  switch (cond.op) {
    case 'eq':
      if (target === null || target === undefined) return isBlank(value, kind);
      return kind === 'checkbox' ? isChecked(value) === (target === true) : equals(value, target, kind);
    case 'neq':
      if (target === null || target === undefined) return !isBlank(value, kind);
      return kind === 'checkbox' ? isChecked(value) !== (target === true) : nullish || !equals(value, target, kind);
    case 'gt': case 'gte': case 'lt': case 'lte': {
      const diff = compare(value, target, kind);
      if (diff === null) return false;
      return { gt: diff > 0, gte: diff >= 0, lt: diff < 0, lte: diff <= 0 }[cond.op];
    }
    case 'like': return target === '' ? !nullish : like(value, target);
    case 'nlike': return target === '' ? nullish : nullish || !like(value, target);
    case 'is': return matchIs(target, value, kind);
    case 'isnot': return !matchIs(target, value, kind);
    case 'in': return list(target).some((t) => equals(value, t, kind));
    case 'notin': return nullish || !list(target).some((t) => equals(value, t, kind));
    case 'btw': case 'nbtw': {
      const [low, high] = list(target);
      const lo = compare(value, low, kind);
      const hi = compare(value, high, kind);
      if (lo === null || hi === null) return false;
      return cond.op === 'btw' ? lo >= 0 && hi <= 0 : !(lo >= 0 && hi <= 0);
    }
    case 'blank': return isBlank(value, kind);
    case 'notblank': return !isBlank(value, kind);
    case 'empty': return kind === 'text' ? value === '' : isBlank(value, kind);
    case 'notempty': return kind === 'text' ? value !== '' : !isBlank(value, kind);
    case 'null': return nullish;
    case 'notnull': return !nullish;
    case 'checked': return isChecked(value);
    case 'notchecked': return !isChecked(value);
    default: return membership(cond, value);
  }
}
