import { pageInfo as pageInfoOf, resolvePaging, type PageInfo, type PagingInput } from '@tabula/contracts';
import type { ColumnInfo } from '@tabula/contracts';
import { presentRecord, type ApiRecord } from '../presenters/record.presenter';
import { presentV3Row, type V3Record } from '../presenters/record-v3.presenter';
import { countRows, selectPage } from '../repositories/records.repository';
import { openTable, type TableInScope } from './table-access';
import { signAttachments } from '../attachments/attachment-signer';
import { presentUserCells } from '../values/user-cells';
import { cachedReadOptions, readKey, readOptions, readFilter, type ReadQuery } from './read-options';
import type { DataPorts } from '../ports';

/** List parameters: the read options plus the page window. */
export interface ListQuery extends ReadQuery, PagingInput {
  /** `exact`: totalRows counted exactly up to SVC_EXACT_COUNT_MAX_ROWS (RowCounter). */
  count?: string;
}

/** A page of records. `pageInfo.isEstimate` is set when totalRows is the planner's estimate (see RowCounter). */
export interface RecordPage {
  list: ApiRecord[];
  pageInfo: PageInfo & { isEstimate?: boolean };
}

/** GET .../{tableName}: one page of records with pageInfo. */
export async function listRecords(ports: DataPorts, scope: TableInScope, query: ListQuery): Promise<RecordPage> {
  return listShaped(ports, scope, query, presentRecord, (r) => r);
}

/** A page of NocoDB v3 records (`{ id, fields }`) with v1's pageInfo. */
export interface V3RecordPage {
  list: V3Record[];
  pageInfo: RecordPage['pageInfo'];
}

/** GET /api/v3/…/records: {@link listRecords} with each row presented straight into v3's `{ id, fields }` (no v1 record made first). */
export async function listRecordsV3(ports: DataPorts, scope: TableInScope, query: ListQuery): Promise<V3RecordPage> {
  const { model } = openTable(scope).handle;
  return listShaped(ports, scope, query, (columns, row) => presentV3Row(model, columns, row), (r) => r.fields);
}

/**
 * One page, each row presented by `present`; `cells` names where a presented
 * record keeps its cells by title (attachments are signed there).
 */
async function listShaped<T>(
  ports: DataPorts, scope: TableInScope, query: ListQuery,
  present: (columns: ColumnInfo[], row: Record<string, unknown>) => T, cells: (record: T) => ApiRecord,
): Promise<{ list: T[]; pageInfo: RecordPage['pageInfo'] }> {
  const { handle, view } = openTable(scope);
  const key = readKey(view, query);
  const options = cachedReadOptions(handle, view, query, key);
  const { limit, offset } = resolvePaging(query, { limit: ports.config.SVC_DB_QUERY_LIMIT_DEFAULT, max: ports.config.SVC_DB_QUERY_LIMIT_MAX });
  // count=exact: the count runs beside the page, not after it (RowCounter.early).
  const totalOf = ports.counter.early(handle, options.filter, { offset, limit }, query.count === 'exact');
  // Object.assign, not a spread with new properties (V8's slow path: docs/benchmarks.md, fifth pass).
  const rows = await selectPage(handle.source.knex, handle, Object.assign({}, options, { limit, offset }), `${key}\u0000${limit}\u0000${offset}`);
  const total = await totalOf(rows.length);
  const pageInfo: RecordPage['pageInfo'] = pageInfoOf(total.totalRows, limit, offset);
  if (total.isEstimate) {
    pageInfo.isEstimate = true;
    pageInfo.isLastPage = rows.length < limit;
  }
  const list = rows.map((r) => present(options.columns, r));
  await signAttachments(ports, handle.baseId, options.columns, list.map(cells));
  await presentUserCells(ports, handle.baseId, options.columns, list.map(cells));
  return { list, pageInfo };
}

/** GET .../find-one: the first matching record, or null. */
export async function findOneRecord(ports: DataPorts, scope: TableInScope, query: ReadQuery): Promise<ApiRecord | null> {
  const { handle, view } = openTable(scope);
  const options = readOptions(handle, view, query);
  const [row] = await selectPage(handle.source.knex, handle, { ...options, limit: 1, offset: 0 });
  if (!row) return null;
  const record = presentRecord(options.columns, row);
  await signAttachments(ports, handle.baseId, options.columns, [record]);
  await presentUserCells(ports, handle.baseId, options.columns, [record]);
  return record;
}

/** GET .../count: `{ count }` of the records matching view filter, where and filterArrJson (always exact). */
export async function countRecords(scope: TableInScope, query: ReadQuery): Promise<{ count: number }> {
  const { handle, view } = openTable(scope);
  return { count: await countRows(handle.source.knex, handle, readFilter(handle, view, query)) };
}
