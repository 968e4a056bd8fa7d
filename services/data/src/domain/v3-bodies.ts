import { appError } from '@tabula/http';
import type { TableModel } from '../model/table-model';

/**
 * NocoDB v3 request shapes turned into the v1 ones the use cases take (no
 * validation of values here: the use cases check every field as on v1).
 * A v3 write body is an array of `{ id?, fields }` or one such object; the
 * messages of a malformed one are NocoDB 0.301.3's.
 */
export type V3Item = { id?: unknown; fields?: unknown };

const invalid = (message: string) => appError('ERR_INVALID_REQUEST_BODY', message);

/** The items of a v3 body: an array, or one object as an array of one (an empty array writes nothing). */
export function v3Items(body: unknown): V3Item[] {
  const items = Array.isArray(body) ? body : [body];
  items.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid(`Record on index ${i} must be an object`);
  });
  return items as V3Item[];
}

/** A record's `fields`; any other property is refused, as NocoDB does (v1 bodies sent to v3). */
function fieldsOf(item: V3Item, i: number, allowed: string[]): Record<string, unknown> {
  const extra = Object.keys(item).filter((k) => !allowed.includes(k));
  if (extra.length) {
    throw invalid(`Properties '${extra.join("', '")}' on index ${i} is not allowed. All record parameters need to be put inside 'fields' property`);
  }
  if (item.fields === undefined) return {};
  if (!item.fields || typeof item.fields !== 'object' || Array.isArray(item.fields)) throw invalid(`Property 'fields' on index ${i} must be an object`);
  return item.fields as Record<string, unknown>;
}

/** The record a v3 `id` names, as a v1 body names it (`{ <pk title>: value }`; a composite id is split as a `{recordId}`). */
function keyBody(model: TableModel, item: V3Item, i: number): Record<string, unknown> {
  const { id } = item;
  if (id === undefined || id === null || id === '') throw invalid(`Property 'id' is required on index ${i}`);
  const pks = model.primaryKeys;
  if (pks.length === 1) return { [pks[0].title]: id };
  const parts = String(id).replace(/\\_/g, '\u0000').split('___').map((p) => p.split('\u0000').join('_'));
  return Object.fromEntries(pks.map((pk, k) => [pk.title, parts[k]]));
}

/** Create: `[{ fields }]` → `[fields]`. */
export function v3CreateBodies(body: unknown): Record<string, unknown>[] {
  return v3Items(body).map((item, i) => fieldsOf(item, i, ['fields']));
}

/** Update: `[{ id, fields }]` → `[{ ...fields, <pk>: id }]` (the id wins over a key field of the same name). */
export function v3UpdateBodies(model: TableModel, body: unknown): Record<string, unknown>[] {
  return v3Items(body).map((item, i) => ({ ...fieldsOf(item, i, ['id', 'fields']), ...keyBody(model, item, i) }));
}

/** Delete: `[{ id }]` → `[{ <pk>: id }]`. */
export function v3KeyBodies(model: TableModel, body: unknown): Record<string, unknown>[] {
  return v3Items(body).map((item, i) => keyBody(model, item, i));
}

const SORT_FORMAT = `Query parameter 'sort' needs to a JSON string in format of [{"field": "fieldId", "direction": "asc"}]`;

/**
 * A v3 `sort`: JSON (`[{"field":"Title","direction":"desc"}]` or one object)
 * as v1's comma-separated `-Title`. Anything else is 400 with NocoDB's
 * message (v3 takes no `-Title`).
 */
export function v3Sort(sort: string | undefined): string | undefined {
  if (sort === undefined || sort === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sort);
  } catch {
    throw invalid(SORT_FORMAT);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((s) => {
    const { field, direction } = (s ?? {}) as { field?: unknown; direction?: unknown };
    if (typeof field !== 'string' || field === '') throw invalid(SORT_FORMAT);
    const dir = direction === undefined ? 'asc' : String(direction).toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') throw invalid(SORT_FORMAT);
    return dir === 'desc' ? `-${field}` : field;
  }).join(',');
}
