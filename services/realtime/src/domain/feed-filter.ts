import type { FeedEvent } from '@tabula/contracts';
import { matchesFilter, parseWhere, parseWhereSyntax, type ColumnMeta, type FilterGroup } from '@tabula/query';

type Row = Record<string, unknown>;

/** A stream's `where` and `fields`, as the client asked them. */
export interface FeedFilterSpec {
  where?: string;
  fields?: string[];
}

/** `fields` as a query gives it: `a,b`, or repeated keys. */
export function parseFields(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return list.length ? list : undefined;
}

/** Throws the records API's 400 when `where` does not parse. */
export function checkWhereSyntax(where: string | undefined): void {
  if (where !== undefined && where !== '') parseWhereSyntax(where);
}

/** A `where` compiled for one table's columns. */
export interface CompiledWhere {
  ast: FilterGroup;
  columns: ColumnMeta[];
}

/** Compiles `where` for a table (throws the records API's 400/404 when a field is unknown). */
export function compileWhere(where: string, columns: ColumnMeta[]): CompiledWhere {
  return { ast: parseWhere(where, columns), columns };
}

function pick(row: Row, fields: string[]): Row {
  const out: Row = {};
  for (const f of fields) if (f in row) out[f] = row[f];
  return out;
}

/**
 * The event as this stream sends it, or undefined when it is filtered out: a
 * record event keeps the rows whose new or previous version matches `where`
 * (an update's rows and previous rows pair by position), then only `fields`.
 */
export function applyFilter(event: FeedEvent, where: CompiledWhere | undefined, fields: string[] | undefined): FeedEvent | undefined {
  if (!event.type.startsWith('records.')) return event;
  let rows = event.rows ?? [];
  let previous = event.previous_rows;
  if (where) {
    const matches = (row: Row | undefined) => row !== undefined && matchesFilter(where.ast, row, where.columns);
    const paired = previous !== undefined && previous.length === rows.length;
    const keep = rows.map((row, i) => matches(row) || (paired && matches(previous![i])));
    if (paired) {
      previous = previous!.filter((_, i) => keep[i]);
      rows = rows.filter((_, i) => keep[i]);
    } else {
      rows = rows.filter((_, i) => keep[i]);
      if (previous) previous = previous.filter((row) => matches(row));
    }
    if (rows.length === 0 && (previous?.length ?? 0) === 0) return undefined;
  }
  if (fields) {
    rows = rows.map((row) => pick(row, fields));
    if (previous) previous = previous.map((row) => pick(row, fields));
  }
  if (rows === event.rows && previous === event.previous_rows) return event;
  return { ...event, rows, ...(previous !== undefined ? { previous_rows: previous } : {}) };
}
