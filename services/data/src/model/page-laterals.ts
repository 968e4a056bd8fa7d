import type { ColumnInfo } from '@tabula/contracts';
import { Fragment, compileFormula, formulaNumber, isQueryError, type FormulaColumn, type FormulaType } from '@tabula/query';
import { formulaPlanOf } from './formula-columns';
import { countsLinks, linkPlanOf } from './link-columns';
import { relationPlanOf } from './relation-columns';
import type { TableModel } from './table-model';

/**
 * pg pages with computed columns: instead of one correlated subquery per
 * computed value (a link's count and values, each lookup and rollup, and again
 * inside every formula using them), one `LEFT JOIN LATERAL` per link computes
 * all of that link's values as aggregates over its related rows, joined to the
 * page's rows only (the page is selected first, then joined):
 *
 *   SELECT …, "__nc_l0"."__nc_v0", … FROM (SELECT "people".* FROM … WHERE … ORDER BY … LIMIT 25) AS "people"
 *     LEFT JOIN LATERAL (SELECT COUNT(*) AS "__nc_v0", json_agg(…) AS "__nc_v1", SUM(…) AS "__nc_v2" FROM … WHERE … = "people"."id") AS "__nc_l0" ON TRUE
 *   ORDER BY …
 *
 * Formulas are compiled a second time with their lookups, rollups and link
 * counts read from the laterals. Filters and sorts keep the correlated forms
 * (they apply to every row, before the page is cut).
 */
export interface LateralPage {
  /** The LEFT JOIN LATERAL clause of each link column, by link column id. */
  joins: Map<string, Fragment>;
  /** The SELECT value of each computed output column, with the link laterals it reads. */
  items: Map<ColumnInfo, { value: Fragment; needs: string[] }>;
}

const pages = new WeakMap<TableModel, LateralPage | null>();

interface LateralValues { alias: string; values: { name: string; expr: Fragment }[] }

/** The lateral plan of a table model (cached with it); null when it has no link whose values can be joined so. */
export function lateralPageOf(model: TableModel): LateralPage | null {
  if (pages.has(model)) return pages.get(model)!;
  const page = buildLateralPage(model);
  pages.set(model, page);
  return page;
}

function buildLateralPage(model: TableModel): LateralPage | null {
  const laterals = new Map<string, LateralValues>();
  const refOf = (linkId: string, expr: Fragment): Fragment | undefined => {
    const link = model.columns.find((c) => c.id === linkId);
    if (!link || !linkPlanOf(link)?.lateral) return undefined;
    let lateral = laterals.get(linkId);
    if (!lateral) { lateral = { alias: `__nc_l${laterals.size}`, values: [] }; laterals.set(linkId, lateral); }
    const name = `__nc_v${lateral.values.length}`;
    lateral.values.push({ name, expr });
    return new Fragment('??', [`${lateral.alias}.${name}`]);
  };
  // One value per link column and per lookup/rollup, shared by the output and the formulas.
  const refs = new Map<string, { value: Fragment; linkId: string; type: FormulaType; scalar: boolean }>();
  for (const c of model.columns) {
    const link = linkPlanOf(c);
    if (link?.lateral) {
      const count = refOf(c.id, link.lateral.count)!;
      refs.set(`count:${c.id}`, { value: count, linkId: c.id, type: 'number', scalar: true });
      if (!countsLinks(c, link)) refs.set(c.id, { value: refOf(c.id, link.lateral.values)!, linkId: c.id, type: 'string', scalar: false });
      else refs.set(c.id, { value: count, linkId: c.id, type: 'number', scalar: true });
      continue;
    }
    const rel = relationPlanOf(c);
    if (rel?.lateral) {
      const value = refOf(rel.linkId, rel.lateral);
      if (value) refs.set(c.id, { value, linkId: rel.linkId, type: rel.type, scalar: !!rel.scalar });
    }
  }
  if (!laterals.size) return null;
  const items = new Map<ColumnInfo, { value: Fragment; needs: string[] }>();
  for (const c of model.columns) {
    const ref = refs.get(c.id);
    if (ref && (linkPlanOf(c) || relationPlanOf(c))) { items.set(c, { value: ref.value, needs: [ref.linkId] }); continue; }
    const formula = formulaPlanOf(c);
    if (formula?.compiled) {
      const compiled = formulaOverLaterals(model, c, refs);
      if (compiled) items.set(c, compiled);
    }
  }
  const joins = new Map<string, Fragment>();
  for (const [linkId, lateral] of laterals) {
    const link = linkPlanOf(model.columns.find((c) => c.id === linkId)!)!.lateral!;
    const select = lateral.values.map((v) => `${v.expr.sql} AS ??`).join(', ');
    const bindings = lateral.values.flatMap((v) => [...v.expr.bindings, v.name]);
    joins.set(linkId, new Fragment(`LEFT JOIN LATERAL (SELECT ${select} FROM ${link.from.sql}) AS ?? ON TRUE`, [...bindings, ...link.from.bindings, lateral.alias]));
  }
  return { joins, items };
}

/** A formula compiled again, its lookups, rollups and link counts read from the laterals (undefined: keep the plain form). */
function formulaOverLaterals(
  model: TableModel, column: ColumnInfo, refs: Map<string, { value: Fragment; linkId: string; type: FormulaType; scalar: boolean }>,
): { value: Fragment; needs: string[] } | undefined {
  const needs = new Set<string>();
  const virtual = (referenced: FormulaColumn) => {
    const ref = referenced.uidt === 'Links' ? refs.get(`count:${referenced.id}`) : refs.get(referenced.id);
    if (!ref || !ref.scalar) return undefined;
    needs.add(ref.linkId);
    // As formulaVirtuals: pg formulas use one representation per type (float8, text), a number past the double's range blank.
    if (ref.type === 'number') return { sql: formulaNumber('pg', ref.value), type: ref.type };
    return { sql: new Fragment(`(${ref.value.sql})${ref.type === 'string' ? '::text' : ''}`, ref.value.bindings), type: ref.type };
  };
  try {
    const text = (column.colOptions as { formula?: string } | undefined)?.formula ?? '';
    const all = model.context.table.columns as FormulaColumn[];
    const compiled = compileFormula(text, { dialect: 'pg', columns: all, virtual }, column as unknown as FormulaColumn);
    return { value: compiled.select, needs: [...needs] };
  } catch (err) {
    if (isQueryError(err)) return undefined;
    throw err;
  }
}

/** The link laterals a page of these columns reads (none: the plain query serves it). */
export function lateralsNeeded(page: LateralPage, columns: ColumnInfo[]): string[] {
  const needs = new Set<string>();
  for (const c of columns) for (const id of page.items.get(c)?.needs ?? []) needs.add(id);
  return [...needs];
}
