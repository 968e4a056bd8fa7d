import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { parseRowId, recordNotFound } from '../model/row-id';
import { tableOf, whereKeys } from '../repositories/records.repository';
import type { DataPorts } from '../ports';
import { itemsOf } from './attachment-cells';

/** Which values storage asks about, in one column (and maybe one row). */
export interface RefsQuery {
  tableId: string;
  columnId: string;
  rowId?: string;
  values: string[];
}

/**
 * Internal: the values (attachment paths or urls) an Attachment column still
 * holds, in one row or in any. A LIKE narrows the rows, the JSON decides.
 */
export async function attachmentRefs(ports: DataPorts, query: RefsQuery): Promise<{ referenced: string[] }> {
  const context = await ports.meta.tableContext({ params: { tableId: query.tableId } });
  const handle = await ports.tables.resolve(context.base.id, query.tableId);
  const column = handle.model.columns.find((c) => c.id === query.columnId && c.uidt === 'Attachment');
  if (!column) throw errors.notFound('ERR_COLUMN_NOT_FOUND', `Attachment column '${query.columnId}' not found`);
  const name = column.column_name;
  let qb: Knex.QueryBuilder = tableOf(handle.source.knex, handle).select(name)
    .where((w) => { for (const v of query.values) w.orWhereLike(name, `%${v.replace(/[%\\]/g, '')}%`); });
  if (query.rowId !== undefined) {
    const key = parseRowId(handle.model, query.rowId);
    if (!key) throw recordNotFound(query.rowId);
    qb = whereKeys(qb, handle, [key]);
  }
  const wanted = new Set(query.values);
  const found = new Set<string>();
  for (const row of (await qb) as Record<string, unknown>[]) {
    for (const item of itemsOf(row[name])) {
      for (const v of [item.path, item.url]) if (typeof v === 'string' && wanted.has(v)) found.add(v);
    }
  }
  return { referenced: [...found] };
}
