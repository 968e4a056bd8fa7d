import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { Fragment, columnKind, formulaNumber, formulaTypeOf, isLinkUidt, isThroughLinkUidt, type ComputedColumn, type FormulaColumn, type FormulaType, type RelatedRows } from '@tabula/query';
import { dialectOf } from './source-dialect';
import { linkColumns, linkPlanOf, relatedFrom, type LinkPlan } from './link-columns';

/** A Lookup or Rollup as the data service computes it: a correlated subquery over the link's related rows. */
export interface RelationValuePlan {
  /** Scalar SQL (bt/oo lookups, every rollup); filters, sorts and formulas use it. */
  scalar?: Fragment;
  /** hm/mm lookups: the looked-up values as a JSON array (shown, not filtered). */
  list?: Fragment;
  kind: ComputedColumn['kind'];
  type: FormulaType;
  /** The link column it goes through. */
  linkId: string;
  /** pg: the value as an aggregate over the link's related rows `__nc_r` (its LEFT JOIN LATERAL, see page-laterals). */
  lateral?: Fragment;
  /** A list of lists (a has-many lookup of a has-many lookup): flattened when presented, as NocoDB does. */
  nested?: boolean;
  /** A list lookup: its related rows and one row's value (or list), for `where` (some value meets the condition). */
  related?: RelatedRows;
  /** A list lookup: what it sorts by (see {@link listSortKey}). */
  sortKey?: Fragment;
}

const plans = new WeakMap<ColumnInfo, RelationValuePlan>();
const AGGREGATE: Record<string, string> = {
  count: 'COUNT(??)', min: 'MIN(??)', max: 'MAX(??)', avg: 'AVG(??)', sum: 'SUM(??)',
  countDistinct: 'COUNT(DISTINCT ??)', sumDistinct: 'SUM(DISTINCT ??)', avgDistinct: 'AVG(DISTINCT ??)',
};

/**
 * The aggregate of a rollup, so that no value written in the related table
 * makes it fail (and with it every page of this table): on PostgreSQL a sum or
 * average of doubles overflows, so they are summed as numeric; SQLite's SUM
 * fails on an integer overflow, so it totals (a double) instead.
 */
function aggregateSql(fn: string, dialect: string, target: { dt?: string | null }): string {
  let sql = AGGREGATE[fn];
  if (dialect === 'pg' && /^(sum|avg)/.test(fn) && /double|real|float/i.test(target.dt ?? '')) sql = sql.replace('??', '(??)::numeric');
  if (dialect === 'sqlite3' && fn.startsWith('sum')) sql = sql.replace('SUM', 'TOTAL');
  // A sum or average over no linked records (or only blank values) is 0, as NocoDB answers.
  return /^(sum|avg)/.test(fn) ? `COALESCE(${sql}, 0)` : sql;
}

interface Options { fk_relation_column_id?: string; fk_lookup_column_id?: string; fk_rollup_column_id?: string; rollup_function?: string; result_type?: string }

/** How deep lookups of lookups (and rollups of rollups) go; meta refuses deeper chains and cycles. */
export const MAX_RELATION_DEPTH = 5;

/** The value a lookup or rollup reads from one related row (alias `plan.alias`): a column, or a computed column of the related table. */
interface TargetValue {
  sql: Fragment;
  /** The related column is itself a list (a lookup through a has-many or many-to-many link). */
  list: boolean;
  kind: ComputedColumn['kind'];
  type: FormulaType;
  /** A list: its rows (for `where`) and its sort key, correlated on the related row. */
  related?: RelatedRows;
  sortKey?: Fragment;
}

function targetValue(context: TableContext, plan: LinkPlan, target: ColumnInfo, depth: number): TargetValue | undefined {
  if (target.column_name && !isThroughLinkUidt(target.uidt) && !isLinkUidt(target.uidt)) {
    const meta = { id: target.id, title: target.title, column_name: target.column_name, uidt: target.uidt, dt: target.dt ?? undefined };
    const targetKind = columnKind(meta);
    const kind = (['text', 'number', 'checkbox', 'date', 'datetime'].includes(targetKind) ? targetKind : 'text') as ComputedColumn['kind'];
    return { sql: new Fragment('??', [`${plan.alias}.${target.column_name}`]), list: false, kind, type: formulaTypeOf(meta) ?? 'string' };
  }
  if (depth >= MAX_RELATION_DEPTH || (!isThroughLinkUidt(target.uidt) && target.uidt !== 'Links')) return undefined;
  // The related table as the outer table of its own subqueries: correlated on this subquery's alias.
  const nested: TableContext = { ...context, table: { ...plan.related, table_name: plan.alias } };
  const links = linkColumns(nested, `__nc_r${depth + 1}`);
  if (target.uidt === 'Links') {
    const link = links.find((l) => l.id === target.id);
    const count = link ? linkPlanOf(link)?.count : undefined;
    return count ? { sql: count, list: false, kind: 'number', type: 'number' } : undefined;
  }
  const column = relationColumns(nested, links, depth + 1).find((c) => c.id === target.id);
  const rel = column ? plans.get(column) : undefined;
  if (!rel) return undefined;
  return { sql: (rel.scalar ?? rel.list)!, list: !rel.scalar, kind: rel.kind, type: rel.type, related: rel.related, sortKey: rel.sortKey };
}

/** `fn`'s `??` placeholders (a column of the related rows) replaced by a value expression. */
function over(fn: string, value: Fragment): Fragment {
  const parts = fn.split('??');
  const bindings = parts.slice(1).flatMap(() => [...value.bindings]);
  return new Fragment(parts.join(`(${value.sql})`), bindings);
}

function planOf(context: TableContext, c: ColumnInfo, links: ColumnInfo[], depth: number): RelationValuePlan | undefined {
  const o = (c.colOptions ?? {}) as Options;
  const link = links.find((l) => l.id === o.fk_relation_column_id);
  const plan = link ? linkPlanOf(link) : undefined;
  const targetColumn = plan?.related.columns.find((x) => x.id === (o.fk_lookup_column_id ?? o.fk_rollup_column_id));
  if (!plan || !targetColumn) return undefined;
  const target = targetValue(context, plan, targetColumn, depth);
  if (!target) return undefined;
  const from = relatedFrom(plan, context.source.schema);
  const d = dialectOf(context);
  const pg = d === 'pg' && depth === 0;
  const linkId = link!.id;
  const physical = !!targetColumn.column_name && target.sql.sql === '??';
  if (c.uidt === 'Rollup') {
    if (!AGGREGATE[o.rollup_function ?? ''] || target.list) return undefined;
    const fn = aggregateSql(o.rollup_function!, d, physical ? targetColumn : { dt: null });
    const numeric = !['min', 'max'].includes(o.rollup_function!);
    const value = over(fn, target.sql);
    const scalar = new Fragment(`(SELECT ${value.sql} FROM ${from.sql})`, [...value.bindings, ...from.bindings]);
    const lateral = pg && physical ? value : undefined;
    return { scalar, kind: numeric ? 'number' : target.kind, type: numeric ? 'number' : target.type, linkId, lateral };
  }
  const { kind, type } = target;
  if (!plan.many) {
    const lateral = pg && physical ? new Fragment('(array_agg(??))[1]', target.sql.bindings) : undefined;
    const value = new Fragment(`(SELECT ${target.sql.sql} FROM ${from.sql} LIMIT 1)`, [...target.sql.bindings, ...from.bindings]);
    if (!target.list) return { scalar: value, kind, type, linkId, lateral };
    // The list of the one related row: its rows, its sort key.
    const sortKey = target.sortKey && new Fragment(`(SELECT ${target.sortKey.sql} FROM ${from.sql} LIMIT 1)`, [...target.sortKey.bindings, ...from.bindings]);
    return { list: value, kind, type, linkId, nested: true, ...(target.related ? { related: { from, inner: target.related }, sortKey } : {}) };
  }
  // A has-many or many-to-many lookup lists its values in the related rows' primary-key order (as NocoDB does).
  const pk = new Fragment('??', [`${plan.alias}.${plan.related.pk.column_name}`]);
  const v = target.sql;
  let list: Fragment;
  if (d === 'pg') list = new Fragment(`(SELECT COALESCE(json_agg(${v.sql} ORDER BY ${pk.sql}), '[]'::json) FROM ${from.sql})`, [...v.bindings, ...pk.bindings, ...from.bindings]);
  else if (d === 'mysql2') list = new Fragment(`(SELECT COALESCE(JSON_ARRAYAGG(${v.sql} ORDER BY ${pk.sql}), JSON_ARRAY()) FROM ${from.sql})`, [...v.bindings, ...pk.bindings, ...from.bindings]);
  // SQLite (3.40) has no ORDER BY inside aggregates: the rows come ordered from a subquery.
  else list = new Fragment(`(SELECT json_group_array(${target.list ? 'json(__nc_v)' : '__nc_v'}) FROM (SELECT ${v.sql} AS __nc_v FROM ${from.sql} ORDER BY ${pk.sql}))`, [...v.bindings, ...from.bindings, ...pk.bindings]);
  const lateral = pg && physical
    ? new Fragment(`COALESCE(json_agg(${v.sql} ORDER BY ${pk.sql}), '[]'::json)`, [...v.bindings, ...pk.bindings]) : undefined;
  // A list of lists: some value of some related row's list; the lists' keys joined (the flattened values' key).
  const related = !target.list ? { related: { from, value: v }, sortKey: listSortKey(d, from, v, pk) }
    : target.related && target.sortKey ? { related: { from, inner: target.related }, sortKey: listSortKey(d, from, target.sortKey, pk, true) } : {};
  return { list, kind, type, linkId, lateral, nested: target.list, ...related };
}

/**
 * The sort key of a list lookup, as NocoDB 0.301.3 sorts a has-many or
 * many-to-many lookup: the text of its values' JSON array on PostgreSQL
 * (`["b1", "b3"]`) and MariaDB (`["b1","b3"]`), its values joined by `___` on
 * SQLite; NULL when there are none. Here in the related rows' primary-key
 * order (the order the list reads in). `inner`: `v` is the key of a list
 * (a list of lists): the keys are joined into the key of the flattened values.
 */
function listSortKey(d: string, from: Fragment, v: Fragment, pk: Fragment, inner = false): Fragment {
  const sql = (text: string, ...parts: Fragment[]) => new Fragment(text, parts.flatMap((p) => [...p.bindings]));
  if (d === 'pg') {
    return inner
      ? sql(`(SELECT '[' || STRING_AGG(SUBSTRING((${v.sql}) FROM 2 FOR LENGTH(${v.sql}) - 2), ', ' ORDER BY ${pk.sql}) || ']' FROM ${from.sql})`, v, v, pk, from)
      : sql(`(SELECT json_agg(${v.sql} ORDER BY ${pk.sql})::text FROM ${from.sql})`, v, pk, from);
  }
  if (d === 'mysql2') {
    return inner
      ? sql(`(SELECT CONCAT('[', GROUP_CONCAT(SUBSTRING((${v.sql}), 2, CHAR_LENGTH(${v.sql}) - 2) ORDER BY ${pk.sql} SEPARATOR ','), ']') FROM ${from.sql})`, v, v, pk, from)
      : sql(`(SELECT CAST(JSON_ARRAYAGG(${v.sql} ORDER BY ${pk.sql}) AS CHAR) FROM ${from.sql})`, v, pk, from);
  }
  // SQLite (3.40) has no ORDER BY inside aggregates: the rows come ordered from a subquery.
  return new Fragment(`(SELECT group_concat(__nc_v, '___') FROM (SELECT ${v.sql} AS __nc_v FROM ${from.sql} ORDER BY ${pk.sql}))`, [...v.bindings, ...from.bindings, ...pk.bindings]);
}

/** The table's Lookup and Rollup columns (given its planned link columns), each with a synthetic SELECT alias. */
export function relationColumns(context: TableContext, links: ColumnInfo[], depth = 0): ColumnInfo[] {
  return context.table.columns.filter((c) => isThroughLinkUidt(c.uidt)).flatMap((c) => {
    const plan = planOf(context, c, links, depth);
    if (!plan) return [];
    const column: ColumnInfo = { ...c, column_name: `__nc_rel_${c.id}`, rqd: false, unique: false, pk: false, ai: false };
    plans.set(column, plan);
    return [column];
  });
}

/** The plan of a Lookup/Rollup column. */
export function relationPlanOf(column: ColumnInfo): RelationValuePlan | undefined {
  return plans.get(column);
}

/** The `virtual` hook of the formula compiler: scalar lookups, rollups and link counts by column id. */
export function formulaVirtuals(context: TableContext, computed: ColumnInfo[]) {
  const byId = new Map(computed.map((c) => [c.id, c]));
  const pg = dialectOf(context) === 'pg';
  return (column: FormulaColumn) => {
    const c = byId.get(column.id);
    if (!c) return undefined;
    const link = linkPlanOf(c);
    const rel = relationPlanOf(c);
    const sql = link && c.uidt === 'Links' ? link.count : rel?.scalar;
    if (!sql) return undefined;
    const type: FormulaType = link ? 'number' : rel!.type;
    // pg formulas use one representation per type (float8, text), as for physical columns;
    // a number past the double's range (a sum of numerics) is blank, not an error.
    if (type === 'number') return { sql: formulaNumber(dialectOf(context), sql), type };
    return { sql: new Fragment(`(${sql.sql})${pg && type === 'string' ? '::text' : ''}`, sql.bindings), type };
  };
}
