import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { Fragment, columnKind, formulaNumber, formulaTypeOf, isThroughLinkUidt, type ComputedColumn, type FormulaColumn, type FormulaType } from '@tabula/query';
import { dialectOf } from './source-dialect';
import { linkPlanOf, relatedFrom } from './link-columns';

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

interface Options { fk_relation_column_id?: string; fk_lookup_column_id?: string; fk_rollup_column_id?: string; rollup_function?: string }

function planOf(context: TableContext, c: ColumnInfo, links: ColumnInfo[]): RelationValuePlan | undefined {
  const o = (c.colOptions ?? {}) as Options;
  const link = links.find((l) => l.id === o.fk_relation_column_id);
  const plan = link ? linkPlanOf(link) : undefined;
  const target = plan?.related.columns.find((x) => x.id === (o.fk_lookup_column_id ?? o.fk_rollup_column_id));
  if (!plan || !target) return undefined;
  const from = relatedFrom(plan, context.source.schema);
  const col = `__nc_r.${target.column_name}`;
  const meta = { id: target.id, title: target.title, column_name: target.column_name, uidt: target.uidt, dt: target.dt ?? undefined };
  const pg = dialectOf(context) === 'pg';
  const linkId = link!.id;
  const targetKind = columnKind(meta);
  const kind = (['text', 'number', 'checkbox', 'date', 'datetime'].includes(targetKind) ? targetKind : 'text') as ComputedColumn['kind'];
  if (c.uidt === 'Rollup') {
    if (!AGGREGATE[o.rollup_function ?? '']) return undefined;
    const fn = aggregateSql(o.rollup_function!, dialectOf(context), target);
    const numeric = !['min', 'max'].includes(o.rollup_function!);
    const cols = fn.split('??').slice(1).map(() => col);
    const scalar = new Fragment(`(SELECT ${fn} FROM ${from.sql})`, [...cols, ...from.bindings]);
    const lateral = pg ? new Fragment(fn, cols) : undefined;
    return { scalar, kind: numeric ? 'number' : kind, type: numeric ? 'number' : formulaTypeOf(meta) ?? 'string', linkId, lateral };
  }
  const type = formulaTypeOf(meta) ?? 'string';
  if (!plan.many) {
    const lateral = pg ? new Fragment('(array_agg(??))[1]', [col]) : undefined;
    return { scalar: new Fragment(`(SELECT ?? FROM ${from.sql} LIMIT 1)`, [col, ...from.bindings]), kind, type, linkId, lateral };
  }
  const d = dialectOf(context);
  const agg = d === 'pg' ? "COALESCE(json_agg(??), '[]'::json)" : d === 'mysql2' ? 'COALESCE(JSON_ARRAYAGG(??), JSON_ARRAY())' : 'json_group_array(??)';
  return { list: new Fragment(`(SELECT ${agg} FROM ${from.sql})`, [col, ...from.bindings]), kind, type, linkId, lateral: pg ? new Fragment(agg, [col]) : undefined };
}

/** The table's Lookup and Rollup columns (given its planned link columns), each with a synthetic SELECT alias. */
export function relationColumns(context: TableContext, links: ColumnInfo[]): ColumnInfo[] {
  return context.table.columns.filter((c) => isThroughLinkUidt(c.uidt)).flatMap((c) => {
    const plan = planOf(context, c, links);
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
