import { parseFilterArrJson, parseWhere, andFilters, filterFromRows } from '@tabula/query';
import type { TableHandle } from '../../context/table-handle';
import { findView } from '../../model/table-model';
import { rowIdOf } from '../../model/row-id';
import { presentRecord } from '../../presenters/record.presenter';
import { deleteByKeys, selectMatching, updateByKeys, type Db } from '../../repositories/records.repository';
import { prepareRows, userIdOf } from '../row-preparer';
import { checkUnique } from '../unique-check';
import { readBack } from '../record-reader';
import { flattenFilters } from '../read-options';
import { runWrite } from '../write-runner';
import { openTable, type TableInScope } from '../table-access';
import { checkWipeGuard } from './bulk-limits';
import type { DataPorts } from '../../ports';
import { claimAttachments } from '../../attachments/attachment-claims';
import { withUserIds } from '../../values/user-cells';

/** Query of update-all / delete-all: `where` (and filterArrJson), optional `viewId`, and `all=true` to allow no filter. */
export interface AllQuery {
  where?: string;
  filterArrJson?: string;
  viewId?: string;
  all?: string;
  /** Comma-separated row ids to leave alone (nocodb-sdk). */
  skipPks?: string;
}

function allFilter(handle: TableHandle, query: AllQuery) {
  const view = query.viewId ? findView(handle.model, query.viewId) : undefined;
  const viewFilter = view?.filters?.length ? filterFromRows(flattenFilters(view.filters), handle.index) : undefined;
  const filter = andFilters(viewFilter, parseWhere(query.where, handle.index), parseFilterArrJson(query.filterArrJson, handle.index));
  checkWipeGuard(filter.children.length > 0, query.all);
  return filter;
}

async function matchingKeys(db: Db, handle: TableHandle, filter: ReturnType<typeof allFilter>, skipPks?: string) {
  const skip = new Set((skipPks ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const rows = (await selectMatching(db, handle, filter, handle.model.outputColumns)).filter((r) => !skip.has(rowIdOf(handle.model, r)));
  const keys = rows.map((r) => Object.fromEntries(handle.model.primaryKeys.map((p) => [p.column_name, r[p.column_name] as string | number])));
  return { keys, previous: rows.map((r) => presentRecord(handle.model.outputColumns, r)) };
}

/** PATCH bulk .../all?where=: sets the body's fields on every matching row; answers the number updated. */
export async function updateAllRecords(ports: DataPorts, scope: TableInScope, body: unknown, query: AllQuery): Promise<number> {
  const { principal } = scope;
  const { handle } = openTable(scope);
  const filter = allFilter(handle, query);
  const [values] = prepareRows(handle, await withUserIds(ports, handle, [body], false), { mode: 'update', userId: userIdOf(principal) }, false);
  await claimAttachments(ports, handle, [body], principal);
  return runWrite(ports, handle, { op: 'updateAll', rows: [body as Record<string, unknown>], principal }, async (trx) => {
    const { keys, previous } = await matchingKeys(trx, handle, filter, query.skipPks);
    if (!keys.length) return { result: 0 };
    if (keys.length > 1 && handle.model.columns.some((c) => c.unique && values[c.column_name] != null)) {
      await checkUnique(trx, handle, keys.map(() => values), keys, true);
    }
    let n = 0;
    for (let i = 0; i < keys.length; i += 1000) n += await updateByKeys(trx, handle, keys.slice(i, i + 1000), values);
    const records = await readBack(trx, handle, keys);
    return { result: n, change: { op: 'updateAll', rows: records, previousRows: previous, principal } };
  });
}

/** DELETE bulk .../all?where=[&viewId=]: deletes every matching row; answers the number deleted. */
export async function deleteAllRecords(ports: DataPorts, scope: TableInScope, query: AllQuery): Promise<number> {
  const { principal } = scope;
  const { handle } = openTable(scope);
  const filter = allFilter(handle, query);
  return runWrite(ports, handle, { op: 'deleteAll', rows: [], principal }, async (trx) => {
    const { keys, previous } = await matchingKeys(trx, handle, filter, query.skipPks);
    let n = 0;
    for (let i = 0; i < keys.length; i += 1000) n += await deleteByKeys(trx, handle, keys.slice(i, i + 1000));
    return { result: n, change: { op: 'deleteAll', rows: previous, previousRows: previous, principal } };
  });
}
