/**
 * Relations through the public API, as NocoDB's clients call it: link,
 * lookup and rollup columns are added with the meta column API
 * (`POST /api/v1/db/meta/tables/{tableId}/columns`), records are linked and
 * unlinked with the v2 nested links API
 * (`/api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}`).
 */
import { api, type Column, type Page, type Row } from './api';

/** Relation kinds (NocoDB): has-many, many-to-many, belongs-to, one-to-one. */
export type LinkType = 'hm' | 'mm' | 'bt' | 'oo';

/** Rollup functions the API computes (the sums and averages need a numeric field). */
export const ROLLUP_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max', 'countDistinct', 'sumDistinct', 'avgDistinct'] as const;
export type RollupFunction = typeof ROLLUP_FUNCTIONS[number];

/** colOptions of link, lookup and rollup columns, named as the API names them. */
export interface RelationOptions {
  type?: LinkType;
  fk_related_model_id?: string;
  fk_relation_column_id?: string;
  fk_lookup_column_id?: string;
  fk_rollup_column_id?: string;
  rollup_function?: RollupFunction;
}

/** A relation column's options (link, lookup, rollup), or an empty object for other columns. */
export function relationOf(column: Column): RelationOptions {
  return (column.colOptions ?? {}) as RelationOptions;
}

/** What the add-column dialog asks for a relation column. */
export type RelationDraft =
  | { uidt: 'Links'; type: LinkType; childId: string }
  | { uidt: 'Lookup'; relationId: string; targetId: string }
  | { uidt: 'Rollup'; relationId: string; targetId: string; fn: RollupFunction };

/** The column body of a relation draft (NocoDB's: `{parentId, childId, type}`, `fk_*_column_id`, `rollup_function`). */
export function relationColumnBody(tableId: string, title: string, draft: RelationDraft): Record<string, unknown> {
  if (draft.uidt === 'Links') {
    // Many records (hm, mm) are a count in NocoDB's `Links`; one record (bt, oo) its `LinkToAnotherRecord`.
    const uidt = draft.type === 'hm' || draft.type === 'mm' ? 'Links' : 'LinkToAnotherRecord';
    return { title, uidt, parentId: tableId, childId: draft.childId, type: draft.type };
  }
  if (draft.uidt === 'Lookup') return { title, uidt: 'Lookup', fk_relation_column_id: draft.relationId, fk_lookup_column_id: draft.targetId };
  return { title, uidt: 'Rollup', fk_relation_column_id: draft.relationId, fk_rollup_column_id: draft.targetId, rollup_function: draft.fn };
}

const linksPath = (tableId: string, columnId: string, recordId: unknown) =>
  `/api/v2/tables/${encodeURIComponent(tableId)}/links/${encodeURIComponent(columnId)}/records/${encodeURIComponent(String(recordId))}`;

export const relations = {
  /** Adds a link, lookup or rollup column (creators and owners). */
  addColumn: (tableId: string, title: string, draft: RelationDraft) =>
    api<Column>('POST', `/api/v1/db/meta/tables/${encodeURIComponent(tableId)}/columns`, { body: relationColumnBody(tableId, title, draft) }),
  /** The records linked to a record through a link column (primary key and display value). */
  linked: (tableId: string, columnId: string, recordId: unknown, query: { limit: number; offset?: number }) =>
    api<Page>('GET', linksPath(tableId, columnId, recordId), { query }),
  /** Links records (a belongs-to or one-to-one link is replaced). */
  link: (tableId: string, columnId: string, recordId: unknown, keys: Row[]) => api<true>('POST', linksPath(tableId, columnId, recordId), { body: keys }),
  unlink: (tableId: string, columnId: string, recordId: unknown, keys: Row[]) => api<true>('DELETE', linksPath(tableId, columnId, recordId), { body: keys }),
  /** Records of the related table whose display value contains `text` (its key and display value only). */
  search: (tableId: string, display: string, key: string, text: string, limit: number) =>
    api<Page>('GET', `/api/v2/tables/${encodeURIComponent(tableId)}/records`, {
      query: { limit, fields: `${key},${display}`, where: text.trim() ? `(${display},like,%${text.replace(/[(),~]/g, ' ').trim()}%)` : undefined },
    }),
};
