import { pageInfo, resolvePaging } from '@tabula/contracts';
import { presentRecord } from '../../presenters/record.presenter';
import { countRows, selectPage } from '../../repositories/records.repository';
import type { TableInScope } from '../table-access';
import { readOptions } from '../read-options';
import type { ListQuery, RecordPage } from '../list-records';
import { keyIn, linkedScope, openLink } from './link-scope';
import type { DataPorts } from '../../ports';

/** Where a nested route points in its (authorized) table: the row and the link column. */
export interface NestedRef {
  rowId: string;
  columnName: string;
}

/**
 * GET .../{rowId}/{relationType}/{columnName}[/exclude]: a page of the records
 * linked to the row (or, `exclude`, the candidates not linked to it), with the
 * related table's where/sort/fields. Two statements: the page and its count.
 */
export async function nestedList(ports: DataPorts, scope: TableInScope, ref: NestedRef, query: ListQuery, exclude: boolean): Promise<RecordPage> {
  const link = await openLink(ports, scope, ref.columnName);
  const db = link.related.source.knex;
  const key = keyIn(link.handle, ref.rowId);
  const linked = linkedScope(link, db, Object.values(key)[0], exclude);
  const options = readOptions(link.related, undefined, query);
  const { limit, offset } = resolvePaging(query, { limit: ports.config.SVC_DB_QUERY_LIMIT_DEFAULT, max: ports.config.SVC_DB_QUERY_LIMIT_MAX });
  const rows = await selectPage(db, link.related, { ...options, limit, offset, scope: linked });
  const totalRows = await countRows(db, link.related, options.filter, linked);
  return { list: rows.map((r) => presentRecord(options.columns, r)), pageInfo: pageInfo(totalRows, limit, offset) };
}
