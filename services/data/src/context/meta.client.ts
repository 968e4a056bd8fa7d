import { AppError, errors, type ServiceClient } from '@tabula/http';
import type { TableContext } from '@tabula/contracts';

/** Asks the meta service for a table's context (`GET /internal/bases/:baseRef/tables/:tableRef`). */
export async function fetchTableContext(services: ServiceClient, baseRef: string, tableRef: string): Promise<TableContext> {
  const res = await services.request<TableContext & { error?: string; message?: string }>('meta', {
    method: 'GET', path: `/internal/bases/${encodeURIComponent(baseRef)}/tables/${encodeURIComponent(tableRef)}`,
  });
  if (res.status === 200) return res.body;
  if (res.status === 404) {
    const code = res.body?.error ?? 'ERR_TABLE_NOT_FOUND';
    throw new AppError(404, code, res.body?.message ?? `Table '${tableRef}' not found`);
  }
  if (res.status >= 400 && res.status < 500) throw new AppError(res.status, res.body?.error ?? 'ERR_BAD_REQUEST', res.body?.message ?? 'Bad request');
  throw errors.unavailable('Metadata service unavailable');
}
