import {
  andFilters, filterFromRows, isTimeZone, parseFilterArrJson, parseSort, parseSortArrJson, parseWhere, resolveFields, sortsFromRows,
  type FilterGroup, type FilterNode, type SortItem, type StoredFilterRow,
} from '@tabula/query';
import { appError } from '@tabula/http';
import type { ColumnInfo, FilterInfo, ViewInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { viewColumns } from '../model/table-model';

/** The list query parameters (compat-notes "Records (v1)"). */
export interface ReadQuery {
  fields?: string;
  sort?: string;
  where?: string;
  sortArrJson?: string;
  filterArrJson?: string;
  getHiddenColumns?: string;
  /** The caller's IANA time zone (NocoDB's `whereTz`). */
  whereTz?: string;
}

/** What a read selects: filter (view ∧ where ∧ filterArrJson), sorts and output columns. */
export interface ReadOptions {
  filter: FilterGroup;
  sorts: SortItem[];
  columns: ColumnInfo[];
}

/** A view's stored filters, flattened to rows linked by fk_parent_id (meta may send them nested). */
export function flattenFilters(filters: FilterInfo[], parent: string | null = null): StoredFilterRow[] {
  return filters.flatMap((f, i) => [
    { ...f, value: f.value as StoredFilterRow['value'], fk_parent_id: f.fk_parent_id ?? parent, order: i },
    ...flattenFilters(f.children ?? [], f.id),
  ]);
}

/** The filter of a view plus the request's `where` and `filterArrJson` (all ANDed). */
export function readFilter(handle: TableHandle, view: ViewInfo | undefined, query: ReadQuery): FilterGroup {
  const viewFilter = view?.filters?.length ? filterFromRows(flattenFilters(view.filters), handle.index) : undefined;
  const filter = andFilters(viewFilter, parseWhere(query.where, handle.index), parseFilterArrJson(query.filterArrJson, handle.index));
  if (query.whereTz === undefined || query.whereTz === '' || query.whereTz === 'UTC') return filter;
  if (!isTimeZone(query.whereTz)) throw appError('ERR_INVALID_REQUEST_BODY', `whereTz: unknown time zone '${query.whereTz}'`);
  return zonedIn(filter, query.whereTz) as FilterGroup;
}

/** The filter with every condition carrying the caller's time zone (DateTime day comparisons use it). */
function zonedIn(node: FilterNode, timeZone: string): FilterNode {
  return node.type === 'group' ? { ...node, children: node.children.map((c) => zonedIn(c, timeZone)) } : { ...node, timeZone };
}

/** Resolves the read parameters; sort precedence: `sort`, else `sortArrJson`, else the view's sorts. */
export function readOptions(handle: TableHandle, view: ViewInfo | undefined, query: ReadQuery): ReadOptions {
  const filter = readFilter(handle, view, query);
  let sorts = parseSort(query.sort, handle.index);
  if (!sorts.length) sorts = parseSortArrJson(query.sortArrJson, handle.index);
  if (!sorts.length && view?.sorts?.length) sorts = sortsFromRows(view.sorts, handle.index);
  return { filter, sorts, columns: outputColumns(handle, view, query) };
}

/** The columns a read answers: the view's visible ones (all with getHiddenColumns), or the `fields` picked (the primary key always). */
export function outputColumns(handle: TableHandle, view: ViewInfo | undefined, query: ReadQuery): ColumnInfo[] {
  const visible = query.getHiddenColumns === 'true' ? handle.model.outputColumns : viewColumns(handle.model, view);
  const picked = resolveFields(query.fields, handle.index);
  if (!picked) return visible;
  const byId = new Map(handle.model.columns.map((c) => [c.id, c]));
  return picked.map((m) => byId.get(m.id)).filter((c): c is ColumnInfo => !!c);
}

/** Parsed read options kept per table handle (dropped with it on meta events), bounded. */
const MAX_OPTIONS_PER_TABLE = 256;
const optionsCache = new WeakMap<TableHandle, Map<string, ReadOptions>>();

/** A text determining the read options of a request (view and every read parameter). */
export function readKey(view: ViewInfo | undefined, query: ReadQuery): string {
  return [view?.id ?? '', query.fields, query.sort, query.where, query.sortArrJson, query.filterArrJson, query.getHiddenColumns, query.whereTz]
    .map((v) => v ?? '\u0001').join('\u0000');
}

/**
 * {@link readOptions}, parsed once per table and parameters: repeated requests
 * skip the where/sort parsers. Entries are shared and never mutated.
 */
export function cachedReadOptions(handle: TableHandle, view: ViewInfo | undefined, query: ReadQuery, key: string): ReadOptions {
  let entries = optionsCache.get(handle);
  if (!entries) {
    entries = new Map();
    optionsCache.set(handle, entries);
  }
  let options = entries.get(key);
  if (!options) {
    options = readOptions(handle, view, query);
    if (entries.size >= MAX_OPTIONS_PER_TABLE) entries.delete(entries.keys().next().value as string);
    entries.set(key, options);
  }
  return options;
}
