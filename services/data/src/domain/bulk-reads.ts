import { readQuerySchema } from '@tabula/contracts';
import { appError } from '@tabula/http';
import { listRecords, type RecordPage } from './list-records';
import { aggregateRecords, groupRecords } from './aggregate-records';
import type { TableInScope } from './table-access';
import type { DataPorts } from '../ports';

/** One request of a bulk read: its `alias` (the answer's key) and its query, as a list, group-by or aggregate takes it. */
interface BulkItem {
  alias: string;
  query: Record<string, unknown>;
}

/** A query value as a query string carries it: numbers and booleans as text, arrays kept (the read schema joins them). */
function asQueryValue(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * The items of a bulk body (NocoDB: an array, or its JSON text; empty or
 * missing is 400 "Invalid bulkFilterList"). Each item is read through the
 * list query schema, so its `where`, `sort`, `fields` and paging are checked
 * as a list's are.
 */
function bulkItems(body: unknown): BulkItem[] {
  let list = body;
  if (typeof list === 'string') { try { list = JSON.parse(list); } catch { /* left as is: refused below */ } }
  if (!Array.isArray(list) || !list.length) throw appError('ERR_INVALID_REQUEST_BODY', 'Invalid bulkFilterList');
  return list.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw appError('ERR_INVALID_REQUEST_BODY', `Item ${i} of the bulk list is no object`);
    const raw = Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([k, v]) => [k, asQueryValue(v)]));
    const parsed = readQuerySchema.passthrough().safeParse(raw);
    if (!parsed.success) throw appError('ERR_INVALID_REQUEST_BODY', `Item ${i} of the bulk list: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    return { alias: String((item as { alias?: unknown }).alias ?? 'undefined'), query: parsed.data as Record<string, unknown> };
  });
}

/** POST /api/v2/tables/{tableId}/bulk/dataList: `{ <alias>: <list answer> }`, each item a list of the table (through the request's view). */
export async function bulkList(ports: DataPorts, scope: TableInScope, body: unknown): Promise<Record<string, RecordPage>> {
  const out: Record<string, RecordPage> = {};
  for (const { alias, query } of bulkItems(body)) out[alias] = await listRecords(ports, scope, query);
  return out;
}

/** POST …/bulk/group: `{ <alias>: <group-by answer> }` (each item names its `column_name`). */
export async function bulkGroup(ports: DataPorts, scope: TableInScope, body: unknown): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { alias, query } of bulkItems(body)) out[alias] = await groupRecords(ports, scope, query);
  return out;
}

/** POST …/bulk/aggregate: the query's aggregations under each item's filter (its `where` and `filterArrJson` join the query's). */
export async function bulkAggregate(
  scope: TableInScope, query: { where?: string; filterArrJson?: string; aggregation: string[] }, body: unknown,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { alias, query: item } of bulkItems(body)) {
    const where = [query.where, item.where as string | undefined].filter((w): w is string => !!w).map((w) => `(${w})`).join('~and');
    const filters = [query.filterArrJson, item.filterArrJson as string | undefined].flatMap((f) => {
      if (!f) return [];
      try { const parsed: unknown = JSON.parse(f); return Array.isArray(parsed) ? parsed : [parsed]; } catch { return []; }
    });
    out[alias] = await aggregateRecords(scope, {
      aggregation: query.aggregation,
      where: where || undefined,
      filterArrJson: filters.length ? JSON.stringify(filters) : undefined,
    });
  }
  return out;
}
