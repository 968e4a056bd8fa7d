import type { HooksPorts } from '../ports';
import { pageInfo, resolvePaging } from '@tabula/contracts';
import { listHookLogs as listRows } from '../repositories/hook-log.repository';
import { presentHookLog } from '../presenters/hook.presenter';
import type { HookInScope } from './hook-access';
import type { ListQuery } from './hook-crud';

/**
 * A hook's logs, newest first, paged (default 25 per page). Only roles that may
 * edit hooks read them (the contract asks `hook.write`): a log carries the
 * target's whole response, which can echo the secrets that hook configuration
 * masks for everyone else.
 */
export async function listHookLogs(ports: HooksPorts, scope: HookInScope, query: ListQuery) {
  const paging = resolvePaging(query, { limit: 25, max: 1000 });
  const { rows, total } = await listRows(ports.db, scope.value.id, paging.limit, paging.offset);
  return { list: rows.map(presentHookLog), pageInfo: pageInfo(total, paging.limit, paging.offset) };
}
