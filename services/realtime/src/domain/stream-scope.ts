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

/** The base a stream's scope lives in (a base id is its own; a table's from meta). */
export async function resolveStreamBase(ports: Pick<RealtimePorts, 'meta'>, kind: 'table' | 'base', id: string): Promise<string> {
  return kind === 'base' ? id : (await loadTable(ports, id)).table.base_id;
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
      missing: (id) => appError('ERR_BASE_NOT_FOUND', `Base '${String(id)}' not found`),
      resolve: async (_principal, id) => ({ baseId: String(id), value: String(id) }),
    },
  };
}
