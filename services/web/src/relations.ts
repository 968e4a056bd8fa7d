import type { Column, Row, Table } from './api';
import { isLinkUidt, isNoLookupUidt, isThroughLinkUidt, uidtEntry } from '../../../libs/query/src/column/uidt-catalogue';
import { relationOf, type LinkType, type RollupFunction } from './relations-api';

export { isLinkUidt, isThroughLinkUidt };

/** The relation column types the add-column dialog offers (after the plain types of COLUMN_TYPES). */
export const RELATION_TYPES = [
  { uidt: 'Links', label: 'Links (to another table)' },
  { uidt: 'Lookup', label: 'Lookup (a field of linked records)' },
  { uidt: 'Rollup', label: 'Rollup (count, sum… of linked records)' },
] as const;

export const LINK_TYPES: { type: LinkType; label: string; many: boolean }[] = [
  { type: 'hm', label: 'has many', many: true },
  { type: 'mm', label: 'many to many', many: true },
  { type: 'bt', label: 'belongs to', many: false },
  { type: 'oo', label: 'one to one', many: false },
];

export const ROLLUP_LABELS: Record<RollupFunction, string> = {
  count: 'count', sum: 'sum', avg: 'average', min: 'minimum', max: 'maximum',
  countDistinct: 'count of distinct values', sumDistinct: 'sum of distinct values', avgDistinct: 'average of distinct values',
};

/** Functions that need a numeric field (the API refuses them on others). */
export const NUMERIC_ROLLUPS: readonly RollupFunction[] = ['sum', 'avg', 'sumDistinct', 'avgDistinct'];

/** A link column links many records (has many, many to many) rather than one. */
export function linksMany(column: Column): boolean {
  return LINK_TYPES.find((t) => t.type === relationOf(column).type)?.many ?? true;
}

/** A related table as the picker needs it: its key and the display value's field. */
export interface RelatedTable { table: Table; key: string; display: string }

export function relatedOf(table: Table): RelatedTable {
  const columns = table.columns ?? [];
  const key = columns.find((c) => c.pk)?.title ?? 'Id';
  return { table, key, display: columns.find((c) => c.pv)?.title ?? columns.find((c) => !c.pk && !c.system)?.title ?? key };
}

/** A linked record's label: its display value (the API answers the key, then the display value). */
export function labelOf(record: Row, display?: string): string {
  const value = display !== undefined && display in record ? record[display] : Object.values(record).at(-1);
  return value === null || value === undefined || value === '' ? '(blank)' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The records of a link cell: a list, one record (belongs to, one to one) or only their count (`Links`). */
export function linkedRecords(value: unknown): Row[] | number {
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.filter((v): v is Row => !!v && typeof v === 'object');
  return value && typeof value === 'object' ? [value as Row] : [];
}

/** A relation cell's text: the linked records' labels or their count, a lookup's values, a rollup's result. */
export function relationText(column: Column, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isLinkUidt(column.uidt)) {
    const linked = linkedRecords(value);
    return typeof linked === 'number' ? countText(linked) : linked.map((r) => labelOf(r)).join(', ');
  }
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v) => v !== null && v !== undefined).map((v) => (typeof v === 'object' ? labelOf(v as Row) : String(v))).join(', ');
}

export function countText(n: number): string {
  return `${n} ${n === 1 ? 'record' : 'records'}`;
}

/** Fields of a related table a lookup or rollup may read (the API refuses formulas and keys of links). */
export function lookupTargets(table: Table | null): Column[] {
  return (table?.columns ?? []).filter((c) => !c.system && !isNoLookupUidt(c.uidt));
}

/** A field whose values are numbers (sum and average need one). */
export function isNumberValued(column: Column): boolean {
  if (isThroughLinkUidt(column.uidt)) return (column.colOptions as { result_type?: string } | null)?.result_type === 'number';
  // The API counts a `Links` column's records when rolling it up or looking it up.
  if (isLinkUidt(column.uidt)) return column.uidt === 'Links';
  return uidtEntry(column.uidt)?.compare === 'number';
}

/** Link, lookup and rollup columns (read through a link; never typed into). */
export function isRelationColumn(column: Pick<Column, 'uidt'>): boolean {
  return isLinkUidt(column.uidt) || isThroughLinkUidt(column.uidt);
}

/**
 * The filter builder offers a relation column only where the API filters it:
 * a `Links` column as the count of its records, never a `LinkToAnotherRecord`'s records.
 */
export function isFilterableRelation(column: Column): boolean {
  return !isLinkUidt(column.uidt) || column.uidt === 'Links';
}
