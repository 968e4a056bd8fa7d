import type { PageInfo } from '@tabula/contracts';
import type { TableModel } from '../model/table-model';
import type { ColumnInfo } from '@tabula/contracts';
import { presentRecord, presentValue, type ApiRecord } from './record.presenter';

/** A record as NocoDB's v3 answers it: the primary key apart, the other fields by title. */
export interface V3Record {
  id: unknown;
  fields: ApiRecord;
}

/** A record's v3 id: its primary key value (a composite key's values joined by `___`, as a `{recordId}` names them). */
export function v3IdOf(model: TableModel, record: ApiRecord): unknown {
  const pks = model.primaryKeys;
  if (pks.length === 1) return record[pks[0].title];
  return pks.map((pk) => String(record[pk.title]).replace(/_/g, '\\_')).join('___');
}

/** `{ id, fields }`: the key columns leave `fields` (empty values stay, null, as NocoDB's v3 answers them). */
export function presentV3Record(model: TableModel, record: ApiRecord): V3Record {
  const keys = new Set(model.primaryKeys.map((pk) => pk.title));
  const fields: ApiRecord = {};
  for (const [title, value] of Object.entries(record)) {
    if (!keys.has(title)) fields[title] = value;
  }
  return { id: v3IdOf(model, record), fields };
}

/**
 * A stored row straight into `{ id, fields }` (one pass, no v1 record made
 * first): equal to `presentV3Record(model, presentRecord(columns, row))`.
 */
export function presentV3Row(model: TableModel, columns: ColumnInfo[], row: Record<string, unknown>): V3Record {
  const pks = model.primaryKeys;
  if (pks.length !== 1) return presentV3Record(model, presentRecord(columns, row));
  const keyId = pks[0].id;
  let id: unknown;
  const fields: ApiRecord = {};
  for (const c of columns) {
    if (c.id === keyId) id = presentValue(c, row[c.column_name]);
    else fields[c.title] = presentValue(c, row[c.column_name]);
  }
  return { id, fields };
}

/** A deleted record's v3 answer: `{ id, deleted: true }`. */
export function presentV3Deleted(model: TableModel, key: ApiRecord): { id: unknown; deleted: true } {
  return { id: v3IdOf(model, key), deleted: true };
}

/**
 * The links of a v3 page: the same request on the neighbouring page (`page`
 * and `pageSize` replace any paging parameters), absent at the ends, as
 * NocoDB answers them. `url` is the request's own URL.
 */
export function v3PageLinks(url: URL, info: PageInfo): { next?: string; prev?: string } {
  const at = (page: number): string => {
    const link = new URL(url.href);
    for (const name of ['page', 'pageSize', 'limit', 'offset']) link.searchParams.delete(name);
    link.searchParams.set('page', String(page));
    link.searchParams.set('pageSize', String(info.pageSize));
    return link.href;
  };
  const links: { next?: string; prev?: string } = {};
  if (!info.isLastPage) links.next = at(info.page + 1);
  if (!info.isFirstPage && info.page > 1) links.prev = at(info.page - 1);
  return links;
}
