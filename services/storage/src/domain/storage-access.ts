import { appError } from '@tabula/http';
import type { ScopeResolvers } from '@tabula/auth';
import type { StoragePorts } from '../ports';

/**
 * What the storage contracts are scoped by: a base named by id (usage; only
 * auth knows who is in it, so the guard's role lookup is the check: no role
 * answers like a missing base) and a table (downloadAttachment: meta says
 * which base it is in; a missing table is meta's 404).
 */
export function storageScopes(ports: Pick<StoragePorts, 'meta'>): ScopeResolvers {
  return {
    base: {
      missing: (id) => appError('ERR_BASE_NOT_FOUND', `Base '${String(id)}' not found`),
      resolve: async (_principal, id) => ({ baseId: String(id), value: String(id) }),
    },
    table: {
      missing: (id) => appError('ERR_TABLE_NOT_FOUND', `Table '${String(id)}' not found`),
      resolve: async (_principal, id) => {
        const table = await ports.meta.tableContext({ params: { tableId: String(id) } });
        return { baseId: table.base.id, value: table };
      },
    },
  };
}
