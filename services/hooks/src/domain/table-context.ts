import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { AppError, errors } from '@tabula/http';
import type { ColumnMeta } from '@tabula/query';
import type { HooksPorts } from '../ports';

/** 404 of a table id (also a table of a base the caller has no role in). */
export function tableNotFound(id: string): AppError {
  return errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${id}' not found`);
}

/** A table's context from meta's internal API; 404 ERR_TABLE_NOT_FOUND when missing. */
export async function loadTable(ports: Pick<HooksPorts, 'meta'>, tableId: string): Promise<TableContext> {
  try {
    return await ports.meta.tableContext({ params: { tableId } });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw tableNotFound(tableId);
    throw err;
  }
}

/** Column metadata in the shape @tabula/query reads. */
export function columnMetas(columns: ColumnInfo[]): ColumnMeta[] {
  return columns.map((c) => ({
    id: c.id, title: c.title, column_name: c.column_name, uidt: c.uidt, dt: c.dt ?? undefined, pk: c.pk, system: c.system,
    colOptions: c.colOptions as ColumnMeta['colOptions'],
  }));
}
