import type { ColumnMeta } from './column.types';

/**
 * Finds columns the way NocoDB does: by title, then id, then column_name (all
 * exact), then by title ignoring case. Built once per request from the table's columns.
 */
export class ColumnIndex {
  private readonly byTitle = new Map<string, ColumnMeta>();
  private readonly byId = new Map<string, ColumnMeta>();
  private readonly byName = new Map<string, ColumnMeta>();
  private readonly byLowerTitle = new Map<string, ColumnMeta>();

  constructor(readonly columns: readonly ColumnMeta[]) {
    for (const column of columns) {
      setOnce(this.byTitle, column.title, column);
      setOnce(this.byId, column.id, column);
      setOnce(this.byName, column.column_name, column);
      setOnce(this.byLowerTitle, column.title.toLowerCase(), column);
    }
  }

  /** The column a client names by title, id or column name; undefined when none. */
  find(name: string): ColumnMeta | undefined {
    return (
      this.byTitle.get(name) ??
      this.byId.get(name) ??
      this.byName.get(name) ??
      this.byLowerTitle.get(name.toLowerCase())
    );
  }

  /** The column with this id (the resolved AST refers to columns by id). */
  byColumnId(id: string): ColumnMeta | undefined {
    return this.byId.get(id);
  }
}

function setOnce(map: Map<string, ColumnMeta>, key: string | undefined, column: ColumnMeta): void {
  if (typeof key === 'string' && !map.has(key)) map.set(key, column);
}

/** Builds an index unless one is given. */
export function toColumnIndex(columns: readonly ColumnMeta[] | ColumnIndex): ColumnIndex {
  return columns instanceof ColumnIndex ? columns : new ColumnIndex(columns);
}
