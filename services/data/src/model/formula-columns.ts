import type { Knex } from 'knex';
import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { countsLinks, linkPlanOf } from './link-columns';
import {
  compileFormula, formulaKind, isQueryError, type ColumnFormulaOptions, type CompiledFormula, type FormulaColumn, isCodeOfColumnUidt,
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

/** A QrCode or Barcode column: the column whose value it shows. A Button: its options (url type: the compiled formula is its plan). */
export interface CodePlan {
  source?: ColumnInfo;
  button?: { type: string; label: string; fk_webhook_id?: string | null };
}
const codePlans = new WeakMap<ColumnInfo, CodePlan>();

/** The code plan of a QrCode, Barcode or Button column (undefined for other columns). */
export function codePlanOf(column: ColumnInfo): CodePlan | undefined {
  return codePlans.get(column);
}

/**
 * QrCode and Barcode columns read their source column's value (NocoDB's
 * fk_qr_value_column_id / fk_barcode_value_column_id); a url Button reads its
 * formula (compiled like a Formula column's). Each gets a synthetic alias.
 */
export function codeColumns(context: TableContext, readable: ColumnInfo[], virtual?: ColumnFormulaOptions['virtual']): ColumnInfo[] {
  const dialect = dialectOf(context);
  const all = context.table.columns as FormulaColumn[];
  const out: ColumnInfo[] = [];
  for (const c of context.table.columns) {
    const options = (c.colOptions ?? {}) as Record<string, unknown>;
    const base: ColumnInfo = { ...c, dt: 'code', rqd: false, unique: false, pk: false, ai: false };
    if (isCodeOfColumnUidt(c.uidt)) {
      const ref = options[c.uidt === 'QrCode' ? 'fk_qr_value_column_id' : 'fk_barcode_value_column_id'];
      const source = readable.find((r) => r.id === ref);
      const column = { ...base, column_name: `__nc_code_${c.id}` };
      codePlans.set(column, { source });
      plans.set(column, {}); // computed: never written, never returned by an insert
      out.push(column);
    } else if (c.uidt === 'Button') {
      const type = typeof options.type === 'string' ? options.type : 'url';
      const column = { ...base, column_name: `__nc_button_${c.id}` };
      codePlans.set(column, { button: { type, label: typeof options.label === 'string' ? options.label : 'Button', fk_webhook_id: options.fk_webhook_id as string | null | undefined } });
      plans.set(column, {});
      if (type === 'url') {
        try {
          plans.set(column, { compiled: compileFormula(String(options.formula ?? "''"), { dialect, columns: all, virtual }, c as FormulaColumn) });
        } catch (err) {
          if (!isQueryError(err)) throw err;
          plans.set(column, { problem: err.message });
        }
      }
      out.push(column);
    }
  }
  return out;
}

/** The compiled plan of a formula column (undefined for other columns). */
export function formulaPlanOf(column: ColumnInfo): FormulaPlan | undefined {
  return plans.get(column);
}

/** The SQL of a computed column's value (undefined for a physical column, `NULL` for a formula that no longer compiles). */
function valueOf(column: ColumnInfo): { sql: string; bindings: readonly Knex.RawBinding[] } | undefined {
  const link = linkPlanOf(column);
  if (link) return countsLinks(column, link) ? link.count! : link.values!;
  const rel = relationPlanOf(column);
  if (rel) return (rel.scalar ?? rel.list)!;
  const code = codePlans.get(column);
  if (code?.source) return valueOf(code.source) ?? { sql: '??', bindings: [code.source.column_name] };
  const plan = plans.get(column);
  if (!plan) return code ? { sql: 'NULL', bindings: [] } : undefined;
  return plan.compiled ? plan.compiled.select : { sql: 'NULL', bindings: [] };
}

/** The SELECT item of a column: its name, or a computed column's expression under the column's alias. */
export function selectItem(db: Knex, column: ColumnInfo): string | Knex.Raw {
  const value = valueOf(column);
  if (!value) return column.column_name;
  return db.raw(`${value.sql} AS ??`, [...value.bindings, column.column_name]);
}

/** The query library's computed-column info of a formula column (or a Links column: its count). */
export function computedOf(column: ColumnInfo) {
  const link = linkPlanOf(column);
  if (link) return column.uidt === 'Links' ? { expression: link.count!, kind: 'number' as const } : undefined;
  const rel = relationPlanOf(column);
  if (rel) return rel.scalar ? { expression: rel.scalar, kind: rel.kind } : rel.related ? { expression: rel.list!, kind: rel.kind, related: rel.related, sortKey: rel.sortKey } : undefined;
  const compiled = plans.get(column)?.compiled;
  return compiled ? { expression: compiled.expression, kind: formulaKind(compiled.type) } : undefined;
}
