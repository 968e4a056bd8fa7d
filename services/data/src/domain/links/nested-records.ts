import { pageInfo, resolvePaging } from '@tabula/contracts';
import { presentRecord } from '../../presenters/record.presenter';
import { countRows, selectPage } from '../../repositories/records.repository';
import type { TableInScope } from '../table-access';
import type { TableHandle } from '../../context/table-handle';
import { readOptions } from '../read-options';
import type { ListQuery, RecordPage } from '../list-records';
import { keyIn, linkedScope, openLink, requireRow } from './link-scope';
import type { DataPorts } from '../../ports';

/** Where a nested route points in its (authorized) table: the row and the link column. */
export interface NestedRef {
  rowId: string;
  columnName: string;
}

/** Options of {@link nestedList}. */
export interface NestedListOptions {
  /** The related records not linked to the row (link candidates) instead of the linked ones. */
  exclude?: boolean;
  /** Columns answered without `fields`: every output column (v1), or the primary key and display value (NocoDB v2). */
  columns?: 'all' | 'keyAndDisplay';
  /** A row that does not exist: an empty page (v1, as NocoDB's v1) or 404 ERR_RECORD_NOT_FOUND (NocoDB's v2). */
  missingRow?: 'empty' | 'notFound';
}

/**
 * GET .../{rowId}/{relationType}/{columnName}[/exclude]: a page of the records
 * linked to the row (or, `exclude`, the candidates not linked to it), with the
 * related table's where/sort/fields. Two statements: the page and its count.
 */
export async function nestedList(ports: DataPorts, scope: TableInScope, ref: NestedRef, query: ListQuery, opt: NestedListOptions = {}): Promise<RecordPage> {
  return (await nestedListOf(ports, scope, ref, query, opt)).page;
}

/** {@link nestedList} with the related table it listed (v3 presents the records by its primary key). */
export async function nestedListOf(
  ports: DataPorts, scope: TableInScope, ref: NestedRef, query: ListQuery, opt: NestedListOptions = {},
): Promise<{ page: RecordPage; related: TableHandle }> {
  const link = await openLink(ports, scope, ref.columnName);
  const db = link.related.source.knex;
  const key = opt.missingRow === 'notFound' ? await requireRow(link.handle.source.knex, link.handle, ref.rowId) : keyIn(link.handle, ref.rowId);
  const linked = linkedScope(link, db, Object.values(key)[0], !!opt.exclude);
  const fields = query.fields ?? (opt.columns === 'keyAndDisplay' ? keyAndDisplay(link.related) : undefined);
  const options = readOptions(link.related, undefined, { ...query, fields });
  const { limit, offset } = resolvePaging(query, { limit: ports.config.SVC_DB_QUERY_LIMIT_DEFAULT, max: ports.config.SVC_DB_QUERY_LIMIT_MAX });
  const rows = await selectPage(db, link.related, { ...options, limit, offset, scope: linked });
  const totalRows = await countRows(db, link.related, options.filter, linked);
  return { page: { list: rows.map((r) => presentRecord(options.columns, r)), pageInfo: pageInfo(totalRows, limit, offset) }, related: link.related };
}

/** The ids of a table's primary key and display value columns, as a `fields` list. */
function keyAndDisplay(handle: TableHandle): string {
  const columns = handle.model.outputColumns.filter((c) => c.pk || c.pv);
  return columns.map((c) => c.id).join(',');
}
