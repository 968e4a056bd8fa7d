import { metaInternal, type TableContext } from '@tabula/contracts';
import { AppError, clientOf, errors, type ServiceClient } from '@tabula/http';

/** The typed client of meta's internal API, as data uses it. */
export type MetaClient = ReturnType<typeof metaClientOf>;

/** Builds the meta client (`clientOf` over meta's internal contracts). */
export function metaClientOf(services: ServiceClient) {
  return clientOf(services, metaInternal);
}

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
