import type { MetaPorts } from '../../ports';
import { listTables as listRows } from '../../repositories/table.repository';
import { pageInfo, resolvePaging, type PagingInput } from '@tabula/contracts';
import { presentTableSummary } from '../../presenters/table.presenter';
import type { BaseInScope } from '../scopes/meta-scopes';

/** Query of the table list: source filter, paging and order. */
export interface ListTablesQuery extends PagingInput {
  sourceId?: string;
  sort?: 'asc' | 'desc';
  /** `true`: junction tables of many-to-many links are listed too. */
  includeM2M?: string;
}

/** True for the junction table a many-to-many link made (`meta.mm`). */
function isJunction(row: { meta?: unknown }): boolean {
  return !!row.meta && typeof row.meta === 'object' && (row.meta as { mm?: unknown }).mm === true;
}

/**
 * The base's tables (optionally one source's), paged, by `order`. Junction
 * tables of many-to-many links are left out unless `includeM2M=true`, as
 * NocoDB does (n8n's table picker lists what this answers).
 */
export async function listTables(ports: MetaPorts, scope: BaseInScope, query: ListTablesQuery) {
  const base = scope.value;
  let rows = await listRows(ports.db, base.id, query.sourceId);
  if (query.includeM2M !== 'true') rows = rows.filter((r) => !isJunction(r));
  if (query.sort === 'desc') rows = rows.reverse();
  const paging = resolvePaging(query, { limit: 1000, max: 1000 });
  const list = rows.slice(paging.offset, paging.offset + paging.limit).map(presentTableSummary);
  return { list, pageInfo: pageInfo(rows.length, paging.limit, paging.offset) };
}
