import type { ColumnInfo } from '@tabula/contracts';

/** An attachment item as a cell holds it. */
export type CellItem = Record<string, unknown> & { path?: string; url?: string };

/** The attachment items of one cell value (an array or its JSON text); empty for anything else. */
export function itemsOf(value: unknown): CellItem[] {
  let parsed = value;
  if (typeof value === 'string') {
    try { parsed = JSON.parse(value); } catch { return []; }
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((i): i is CellItem => !!i && typeof i === 'object' && (typeof i.path === 'string' || typeof i.url === 'string'));
}

/** The Attachment columns among `columns`. */
export function attachmentColumns(columns: ColumnInfo[]): ColumnInfo[] {
  return columns.filter((c) => c.uidt === 'Attachment');
}

/** The value a write body gives a column (by title or column name), undefined when absent. */
export function bodyValue(body: unknown, column: ColumnInfo): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  return column.title in b ? b[column.title] : b[column.column_name];
}
