import { appError, AppError } from '@tabula/http';
import type { ScopeResolvers } from '@tabula/auth';
import type { TableContext } from '@tabula/contracts';
import type { ColumnMeta } from '@tabula/query';
import type { RealtimePorts } from '../ports';

/** A table's context from meta; 404 ERR_TABLE_NOT_FOUND when it (or its base) is gone. */
export async function loadTable(ports: Pick<RealtimePorts, 'meta'>, tableId: string): Promise<TableContext> {
  try {
    const context = await ports.meta.tableContext({ params: { tableId } });
    if (context.base.deleted) throw appError('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
    return context;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw appError('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
    throw err;
  }
}

/** Column metadata in the shape @tabula/query reads. */
export function columnMetas(context: TableContext): ColumnMeta[] {
  return context.table.columns.map((c) => ({
    id: c.id, title: c.title, column_name: c.column_name, uidt: c.uidt, dt: c.dt ?? undefined, pk: c.pk, system: c.system,
    colOptions: c.colOptions as ColumnMeta['colOptions'],
  }));
}

/**
 * What the realtime contracts are scoped by: a table (meta says its base) and
 * a base by id (only auth knows who is in it: the guard's role lookup is the
 * check, no role answers like a missing base).
 */
export function streamScopes(ports: Pick<RealtimePorts, 'meta'>): ScopeResolvers {
  return {
    table: {
      missing: (id) => appError('ERR_TABLE_NOT_FOUND', `Table '${String(id)}' not found`),
      resolve: async (_principal, id) => {
        const context = await loadTable(ports, String(id));
        return { baseId: context.table.base_id, value: context };
      },
    },
    base: {
      // A base id (streams), or a ticket's body: `{ table_id }` (its table's base) or `{ base_id }`.
      missing: (id) => (isTableTarget(id)
        ? appError('ERR_TABLE_NOT_FOUND', `Table '${id.table_id}' not found`)
        : appError('ERR_BASE_NOT_FOUND', `Base '${String(typeof id === 'object' && id ? (id as { base_id?: string }).base_id : id)}' not found`)),
      resolve: async (_principal, id) => {
        if (isTableTarget(id)) return { baseId: (await loadTable(ports, id.table_id)).table.base_id, value: id.table_id };
        const baseId = typeof id === 'object' && id ? String((id as { base_id: string }).base_id) : String(id);
        return { baseId, value: baseId };
      },
    },
  };
}

function isTableTarget(id: unknown): id is { table_id: string } {
  return typeof id === 'object' && id !== null && 'table_id' in id;
}
