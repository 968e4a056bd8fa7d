import { errors } from '@tabula/http';
import type { ColumnInfo, TableContext } from '@tabula/contracts';
import type { ColumnMeta } from '@tabula/query';
import type { HooksPorts } from '../app';

/** A table's context from meta's internal API; 404 ERR_TABLE_NOT_FOUND when missing. */
export async function loadTable(ports: HooksPorts, tableId: string): Promise<TableContext> {
  const res = await ports.services.request<TableContext>('meta', { method: 'GET', path: `/internal/tables/${encodeURIComponent(tableId)}` });
  if (res.status === 404) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
  if (res.status !== 200) throw new Error(`meta answered ${res.status} for table ${tableId}`);
  return res.body;
}

/** Column metadata in the shape @tabula/query reads. */
export function columnMetas(columns: ColumnInfo[]): ColumnMeta[] {
  return columns.map((c) => ({
    id: c.id, title: c.title, column_name: c.column_name, uidt: c.uidt, dt: c.dt ?? undefined, pk: c.pk, system: c.system,
    colOptions: c.colOptions as ColumnMeta['colOptions'],
  }));
}
