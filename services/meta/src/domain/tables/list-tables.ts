import type { MetaPorts } from '../../ports';
import { listTables as listRows } from '../../repositories/table.repository';
import { pageInfo, resolvePaging, type PagingInput } from '@tabula/contracts';
import { presentTableSummary } from '../../presenters/table.presenter';
import type { BaseInScope } from '../scopes/meta-scopes';

/** Query of the table list: source filter, paging and order. */
export interface ListTablesQuery extends PagingInput {
  sourceId?: string;
  sort?: 'asc' | 'desc';
}

/** The base's tables (optionally one source's), paged, by `order`. */
export async function listTables(ports: MetaPorts, scope: BaseInScope, query: ListTablesQuery) {
  const base = scope.value;
  let rows = await listRows(ports.db, base.id, query.sourceId);
  if (query.sort === 'desc') rows = rows.reverse();
  const paging = resolvePaging(query, { limit: 1000, max: 1000 });
  const list = rows.slice(paging.offset, paging.offset + paging.limit).map(presentTableSummary);
  return { list, pageInfo: pageInfo(rows.length, paging.limit, paging.offset) };
}
