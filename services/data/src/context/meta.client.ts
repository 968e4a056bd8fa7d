import type { TableContext } from '@tabula/contracts';
import { AppError, errors } from '@tabula/http';
import type { MetaClient } from '../adapters/service-clients';

/** Meta's 4xx answers pass through (404 names the missing base or table); anything else is "unavailable". */
async function asked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError && err.status >= 400 && err.status < 500) throw err;
    throw errors.unavailable('Metadata service unavailable');
  }
}

/** A table's context by base and table refs (`GET /internal/bases/:baseRef/tables/:tableRef`). */
export function fetchTableContext(meta: MetaClient, baseRef: string, tableRef: string): Promise<TableContext> {
  return asked(() => meta.tableContextByRef({ params: { baseRef, tableRef } }));
}

/** A table's context by table id (`GET /internal/tables/:tableId`). */
export function fetchTableContextById(meta: MetaClient, tableId: string): Promise<TableContext> {
  return asked(() => meta.tableContext({ params: { tableId } }));
}
