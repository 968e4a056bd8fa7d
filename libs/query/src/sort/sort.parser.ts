import { z } from 'zod';
import { toColumnIndex, type ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { columnKind, isLinkColumn } from '../column/column-kind';
import { FILTER_LIMITS } from '../filter/limits';
import { QueryError } from '../query-error';
import type { SortDirection, SortItem, StoredSortRow } from './sort.types';

const DIRECTIONS: readonly SortDirection[] = ['asc', 'desc', 'count-asc', 'count-desc'];

/** One sortArrJson item in either key style. */
const sortItemSchema = z.object({
  /** Spec style: column title or id. */
  field: z.string().optional(),
  /** NocoDB style: column id (titles accepted too). */
  fk_column_id: z.string().optional(),
  /** asc (default), desc, count-asc, count-desc; any case. */
  direction: z.string().nullish(),
});

/**
 * Parses `sort=Title,-Other,~-Links`: `-` descending, `+` or nothing ascending,
 * `~-` / `~+` count-desc / count-asc (link columns only).
 * @throws QueryError 404 ERR_FIELD_NOT_FOUND naming unknown columns; 422 ERR_INVALID_SORT.
 */
export function parseSort(sort: string | string[] | undefined | null, columns: readonly ColumnMeta[] | ColumnIndex): SortItem[] {
  if (sort === undefined || sort === null) return [];
  const text = Array.isArray(sort) ? sort.join(',') : String(sort);
  const specs = text.split(',').map((s) => s.trim()).filter(Boolean).map(prefixDirection);
  return resolveSorts(specs, toColumnIndex(columns));
}

function prefixDirection(spec: string): { name: string; direction: SortDirection } {
  if (spec.startsWith('~-')) return { name: spec.slice(2).trim(), direction: 'count-desc' };
  if (spec.startsWith('~+')) return { name: spec.slice(2).trim(), direction: 'count-asc' };
  if (spec.startsWith('-')) return { name: spec.slice(1).trim(), direction: 'desc' };
  if (spec.startsWith('+')) return { name: spec.slice(1).trim(), direction: 'asc' };
  return { name: spec, direction: 'asc' };
}

/**
 * Parses `sortArrJson`: `[{field, direction}]` or `[{fk_column_id, direction}]`.
 * @throws QueryError 400 ERR_INVALID_REQUEST for malformed JSON or items, 404 for unknown columns.
 */
export function parseSortArrJson(json: string | undefined | null, columns: readonly ColumnMeta[] | ColumnIndex): SortItem[] {
  if (json === undefined || json === null || json.trim() === '') return [];
  if (json.length > FILTER_LIMITS.maxJsonLength) throw QueryError.invalidRequest('sortArrJson is too long');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw QueryError.invalidRequest('Invalid JSON in sortArrJson');
  }
  if (!Array.isArray(parsed)) throw QueryError.invalidRequest('sortArrJson must be a JSON array');
  const specs = parsed.map((item, index) => {
    const result = sortItemSchema.safeParse(item);
    const name = result.success ? (result.data.field ?? result.data.fk_column_id) : undefined;
    if (!result.success || !name) {
      throw QueryError.invalidRequest(`Invalid sortArrJson item ${index}: 'field' is required`, { index });
    }
    return { name, direction: toDirection(result.data.direction, index) };
  });
  return resolveSorts(specs, toColumnIndex(columns));
}

function toDirection(value: string | null | undefined, index: number): SortDirection {
  if (value === null || value === undefined || value === '') return 'asc';
  const direction = DIRECTIONS.find((d) => d === value.toLowerCase());
  if (!direction) {
    throw QueryError.invalidRequest(`Invalid sort direction '${value.slice(0, 20)}' in item ${index}`, { index });
  }
  return direction;
}

/** View sorts as stored (ordered by `order`); sorts on deleted columns are skipped. */
export function sortsFromRows(rows: readonly StoredSortRow[], columns: readonly ColumnMeta[] | ColumnIndex): SortItem[] {
  const index = toColumnIndex(columns);
  const ordered = [...rows].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const specs = ordered
    .filter((row) => index.find(row.fk_column_id))
    .map((row, i) => ({ name: row.fk_column_id, direction: toDirection(row.direction, i) }));
  return resolveSorts(specs, index);
}

function resolveSorts(specs: { name: string; direction: SortDirection }[], index: ColumnIndex): SortItem[] {
  const missing = specs.filter((s) => !index.find(s.name)).map((s) => s.name.slice(0, 100));
  if (missing.length) throw QueryError.fieldNotFound([...new Set(missing)]);
  return specs.map(({ name, direction }) => toSortItem(index.find(name) as ColumnMeta, direction));
}

function toSortItem(column: ColumnMeta, direction: SortDirection): SortItem {
  if (isLinkColumn(column)) {
    const counted: SortDirection = direction === 'desc' || direction === 'count-desc' ? 'count-desc' : 'count-asc';
    return { column, direction: counted };
  }
  if (direction === 'count-asc' || direction === 'count-desc') {
    throw QueryError.invalidSort(`Count sort is only allowed on link columns; '${column.title}' is ${column.uidt}`, {
      column: column.title,
    });
  }
  if (columnKind(column) === 'virtual' || (column.computed?.related && !column.computed.sortKey)) {
    throw QueryError.invalidSort(`Sorting on column '${column.title}' (${column.uidt}) is not supported`, {
      column: column.title,
    });
  }
  return { column, direction };
}
