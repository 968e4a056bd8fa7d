import type { ColumnMeta } from '../column/column.types';

/** asc: A-Z, 0-9, oldest first (NULLs first); desc the reverse; count-* by number of linked records. */
export type SortDirection = 'asc' | 'desc' | 'count-asc' | 'count-desc';

/** One resolved sort. */
export interface SortItem {
  column: ColumnMeta;
  direction: SortDirection;
}

/** A view sort row as the meta service stores it. */
export interface StoredSortRow {
  fk_column_id: string;
  direction?: string | null;
  order?: number | null;
}
