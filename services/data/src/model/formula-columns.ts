import type { Knex } from 'knex';
import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { linkPlanOf } from './link-columns';
import {
  compileFormula, formulaKind, isQueryError, type ColumnFormulaOptions, type CompiledFormula, type FormulaColumn,
} from '@tabula/query';
import { relationPlanOf } from './relation-columns';

/** A formula column as the data service reads it: the compiled SQL, or why it cannot compile. */
export interface FormulaPlan {
  compiled?: CompiledFormula;
  /** Why the formula no longer compiles (a referenced column changed type); values read as null. */
  problem?: string;
}

const plans = new WeakMap<ColumnInfo, FormulaPlan>();

import { dialectOf } from './source-dialect';

export { dialectOf };

/**
 * The table's Formula columns, compiled once per cached table context. Each
 * gets a synthetic `column_name` (the SELECT alias) so rows and presenters
 * treat it like any column.
 */
export function formulaColumns(context: TableContext, virtual?: ColumnFormulaOptions['virtual']): ColumnInfo[] {
  const dialect = dialectOf(context);
  const all = context.table.columns as FormulaColumn[];
  return context.table.columns.filter((c) => c.uidt === 'Formula').map((c) => {
    const column: ColumnInfo = { ...c, column_name: `__nc_formula_${c.id}`, dt: 'formula', rqd: false, unique: false, pk: false, ai: false };
    const formula = (c.colOptions as { formula?: string } | undefined)?.formula ?? '';
    try {
      plans.set(column, { compiled: compileFormula(formula, { dialect, columns: all, virtual }, c as FormulaColumn) });
    } catch (err) {
      if (!isQueryError(err)) throw err;
      plans.set(column, { problem: err.message });
    }
    return column;
  });
}

/** The compiled plan of a formula column (undefined for other columns). */
export function formulaPlanOf(column: ColumnInfo): FormulaPlan | undefined {
  return plans.get(column);
}

/** The SELECT item of a column: its name, or a formula's or link's expression under the column's alias. */
export function selectItem(db: Knex, column: ColumnInfo): string | Knex.Raw {
  const link = linkPlanOf(column);
  if (link) {
    const value = column.uidt === 'Links' ? link.count! : link.values!;
    return db.raw(`${value.sql} AS ??`, [...value.bindings, column.column_name]);
  }
  const rel = relationPlanOf(column);
  if (rel) {
    const value = (rel.scalar ?? rel.list)!;
    return db.raw(`${value.sql} AS ??`, [...value.bindings, column.column_name]);
  }
  const plan = plans.get(column);
  if (!plan) return column.column_name;
  if (!plan.compiled) return db.raw('NULL AS ??', [column.column_name]);
  const { sql, bindings } = plan.compiled.select;
  return db.raw(`${sql} AS ??`, [...bindings, column.column_name]);
}

/** The query library's computed-column info of a formula column (or a Links column: its count). */
export function computedOf(column: ColumnInfo) {
  const link = linkPlanOf(column);
  if (link) return column.uidt === 'Links' ? { expression: link.count!, kind: 'number' as const } : undefined;
  const rel = relationPlanOf(column);
  if (rel) return rel.scalar ? { expression: rel.scalar, kind: rel.kind } : undefined;
  const compiled = plans.get(column)?.compiled;
  return compiled ? { expression: compiled.expression, kind: formulaKind(compiled.type) } : undefined;
}
