import type { ColumnInfo, TableContext, TableInfo } from '@tabula/contracts';
import { Fragment, ident, isLinkUidt } from '@tabula/query';
import { dialectOf } from './source-dialect';

/** Link relation types (NocoDB). */
export type LinkType = 'hm' | 'bt' | 'mm' | 'oo';

/**
 * How a link column reaches its related records, with physical names only
 * (from metadata). `fkHere`: the foreign key lives in this table (bt, the child
 * side of oo); else in the related table (hm, the parent side of oo) or in the
 * junction table (mm).
 */
export interface LinkPlan {
  type: LinkType;
  many: boolean;
  table: { name: string; pk: string };
  related: TableInfo & { pk: ColumnInfo; pv: ColumnInfo };
  /** hm/bt/oo: the foreign key column name. */
  fk?: string;
  fkHere: boolean;
  /** mm: junction table and its columns referencing this table / the related table. */
  junction?: { name: string; self: string; other: string };
  /** The alias of the related rows in the subqueries (`__nc_r`; deeper for lookups through lookups). */
  alias: string;
  /** A required bt link: an insert must name the related record. */
  required?: boolean;
  /** The number of linked records (a correlated subquery). */
  count?: Fragment;
  /** The linked records' key and primary value as JSON (a correlated subquery). */
  values?: Fragment;
  /**
   * pg: the same two values as aggregates over the related rows `__nc_r` of
   * `from`, for one LEFT JOIN LATERAL per link and page (see page-laterals).
   */
  lateral?: { from: Fragment; count: Fragment; values: Fragment };
}

const plans = new WeakMap<ColumnInfo, LinkPlan>();

interface LinkOptions {
  type: LinkType; fk_related_model_id: string; fk_child_column_id: string; fk_parent_column_id: string;
  fk_mm_model_id?: string | null; fk_mm_child_column_id?: string | null; fk_mm_parent_column_id?: string | null;
}

function planOf(context: TableContext, c: ColumnInfo, alias: string): LinkPlan | undefined {
  const o = c.colOptions as unknown as LinkOptions | undefined;
  const tables = context.related ?? [];
  const related = tables.find((t) => t.id === o?.fk_related_model_id);
  if (!o || !related) return undefined;
  const pk = related.columns.find((x) => x.pk);
  const selfPk = context.table.columns.find((x) => x.pk);
  if (!pk || !selfPk) return undefined;
  const pv = related.columns.find((x) => x.pv) ?? pk;
  const base = { type: o.type, alias, table: { name: context.table.table_name, pk: selfPk.column_name }, related: { ...related, pk, pv } };
  if (o.type === 'mm') {
    const junction = tables.find((t) => t.id === o.fk_mm_model_id);
    const self = junction?.columns.find((x) => x.id === o.fk_mm_child_column_id);
    const other = junction?.columns.find((x) => x.id === o.fk_mm_parent_column_id);
    if (!junction || !self || !other) return undefined;
    return { ...base, many: true, fkHere: false, junction: { name: junction.table_name, self: self.column_name, other: other.column_name } };
  }
  // The key is here for bt and for the child side of oo (meta.bt), also when a table links to itself.
  const fkHere = o.type === 'bt' || (o.type === 'oo' && (c.meta as { bt?: boolean } | null | undefined)?.bt === true);
  const fk = (fkHere ? context.table.columns : related.columns).find((x) => x.id === o.fk_child_column_id);
  if (!fk) return undefined;
  return { ...base, many: o.type === 'hm', fkHere, fk: fk.column_name };
}

/**
 * The table's link columns, planned once per cached context, each with a
 * synthetic `column_name` (the SELECT alias of its value). Links whose
 * related tables are missing from the context are left out.
 */
export function linkColumns(context: TableContext, alias = '__nc_r'): ColumnInfo[] {
  return context.table.columns.filter((c) => isLinkUidt(c.uidt)).flatMap((c) => {
    const plan = planOf(context, c, alias);
    if (!plan) return [];
    const column: ColumnInfo = { ...c, column_name: `__nc_link_${c.id}`, rqd: false, unique: false, pk: false, ai: false };
    plan.required = c.rqd && plan.fkHere;
    plan.count = linkCountExpression(plan, context.source.schema, dialectOf(context) !== 'sqlite3');
    plan.values = linkValuesExpression(plan, context, context.source.schema);
    // Laterals join the page's rows: top level only (a nested plan correlates on its enclosing subquery).
    if (dialectOf(context) === 'pg' && alias === '__nc_r') plan.lateral = lateralValues(plan, context.source.schema);
    plans.set(column, plan);
    return [column];
  });
}

/**
 * True when a link column reads as its number of linked records: a `Links`
 * column of the many side (hm, mm). The one side of a `Links` pair (the child
 * of a has-many, either side of a one-to-one) reads the linked record as an
 * object, as NocoDB's LinkToAnotherRecord does.
 */
export function countsLinks(column: ColumnInfo, plan: LinkPlan): boolean {
  return column.uidt === 'Links' && plan.many;
}

/** The plan of a link column (undefined for other columns). */
export function linkPlanOf(column: ColumnInfo): LinkPlan | undefined {
  return plans.get(column);
}

/** The related rows of the outer row, as `FROM … WHERE …` (alias `__nc_r`), correlated on the outer table's name. */
export function relatedFrom(plan: LinkPlan, schema: string | undefined): Fragment {
  const q = (name: string) => (schema ? `${schema}.${name}` : name);
  const outer = (col: string) => ident(`${plan.table.name}.${col}`);
  const r = (col: string) => ident(`${plan.alias}.${col}`);
  const from = new Fragment('?? AS ??', [q(plan.related.table_name), plan.alias]);
  if (plan.junction) {
    const j = plan.junction;
    return new Fragment(`${from.sql} JOIN ?? AS ?? ON ?? = ${r(plan.related.pk.column_name).sql} WHERE ?? = ${outer(plan.table.pk).sql}`, [
      ...from.bindings, q(j.name), '__nc_j', `__nc_j.${j.other}`, ...r(plan.related.pk.column_name).bindings, `__nc_j.${j.self}`, ...outer(plan.table.pk).bindings,
    ]);
  }
  const [inner, outerCol] = plan.fkHere ? [plan.related.pk.column_name, plan.fk!] : [plan.fk!, plan.table.pk];
  return new Fragment(`${from.sql} WHERE ${r(inner).sql} = ${outer(outerCol).sql}`, [...from.bindings, ...r(inner).bindings, ...outer(outerCol).bindings]);
}

/**
 * `(SELECT COUNT(*) …)`: the number of linked records of the outer row. mm
 * links count their junction rows alone where foreign keys guarantee each
 * references a live record (`junctionOnly`: pg, MariaDB; SQLite joins).
 */
export function linkCountExpression(plan: LinkPlan, schema: string | undefined, junctionOnly = false): Fragment {
  if (plan.junction && junctionOnly) {
    const name = schema ? `${schema}.${plan.junction.name}` : plan.junction.name;
    const outer = ident(`${plan.table.name}.${plan.table.pk}`);
    return new Fragment(`(SELECT COUNT(*) FROM ?? AS ?? WHERE ?? = ${outer.sql})`, [name, '__nc_j', `__nc_j.${plan.junction.self}`, ...outer.bindings]);
  }
  const from = relatedFrom(plan, schema);
  return new Fragment(`(SELECT COUNT(*) FROM ${from.sql})`, from.bindings);
}

/** `{pk title: pk, pv title: pv}` of a related row `__nc_r` as a JSON object. */
function linkObject(plan: LinkPlan, dialect: string): { object: string; pairBindings: string[] } {
  const { pk, pv } = plan.related;
  // PostgreSQL cannot infer the type of a bound key name inside json_build_object.
  const key = dialect === 'pg' ? 'CAST(? AS TEXT)' : '?';
  const pairs = pk.id === pv.id ? `${key}, ??` : `${key}, ??, ${key}, ??`;
  const a = plan.alias;
  const pairBindings = pk.id === pv.id ? [pk.title, `${a}.${pk.column_name}`] : [pk.title, `${a}.${pk.column_name}`, pv.title, `${a}.${pv.column_name}`];
  const object = dialect === 'pg' ? `json_build_object(${pairs})` : dialect === 'mysql2' ? `JSON_OBJECT(${pairs})` : `json_object(${pairs})`;
  return { object, pairBindings };
}

/** pg: the count and the values of a link as aggregates over its related rows (one row per outer row, always). */
function lateralValues(plan: LinkPlan, schema: string | undefined): LinkPlan['lateral'] {
  const { object, pairBindings } = linkObject(plan, 'pg');
  const values = plan.many ? `COALESCE(json_agg(${object}), '[]'::json)` : `(array_agg(${object}))[1]`;
  return { from: relatedFrom(plan, schema), count: new Fragment('COUNT(*)', []), values: new Fragment(values, pairBindings) };
}

/** The linked records' `{pk title: pk, pv title: pv}` as JSON: an array for hm/mm, an object (or NULL) for bt/oo. */
export function linkValuesExpression(plan: LinkPlan, context: TableContext, schema: string | undefined): Fragment {
  const dialect = dialectOf(context);
  const from = relatedFrom(plan, schema);
  const { object, pairBindings } = linkObject(plan, dialect);
  if (!plan.many) return new Fragment(`(SELECT ${object} FROM ${from.sql} LIMIT 1)`, [...pairBindings, ...from.bindings]);
  const agg = dialect === 'pg' ? `COALESCE(json_agg(${object}), '[]'::json)`
    : dialect === 'mysql2' ? `COALESCE(JSON_ARRAYAGG(${object}), JSON_ARRAY())` : `json_group_array(${object})`;
  return new Fragment(`(SELECT ${agg} FROM ${from.sql})`, [...pairBindings, ...from.bindings]);
}
