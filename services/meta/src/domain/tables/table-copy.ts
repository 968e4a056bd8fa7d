import type { ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';

/** A table copied on its source (DDL and rows) and not yet recorded in the metadata. */
export interface TableCopy {
  fromTableId: string;
  row: Omit<TableRow, 'created_at' | 'updated_at'>;
  columns: ColumnRow[];
  /** Source column id → copy's column id. */
  columnMap: Map<string, string>;
}
