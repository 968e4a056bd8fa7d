import type { Dialect } from '../column/column.types';
import type { Fragment } from '../compile/sql-fragment';
import { FORMULA_LIMITS, fieldReferences, type FormulaType } from './formula.ast';
import { SYSTEM_FUNCTIONS, compileNode, presentFormulaValue, selectValue } from './formula.compiler';
import { FUNCTIONS } from './formula.functions';
import { parseFormula } from './formula.parser';
import { columnFormulaContext, formulaTypeOf, type ColumnFormulaOptions, type FormulaColumn } from './formula.resolver';
import { pgDouble, pgExact } from './formula.safe';
import { cappedText } from './formula.text';

/** A compiled formula: its typed expression (filters, sorts) and its SELECT value. */
export interface CompiledFormula {
  type: FormulaType;
  /** The expression (for WHERE and ORDER BY). */
  expression: Fragment;
  /** The expression formatted for output (dates as text, booleans as 1/0). */
  select: Fragment;
  /** Field names the formula references directly. */
  references: string[];
}

/**
 * Parses, type-checks and compiles a formula over a table's columns. Every
 * literal is a bound value; column names come from the metadata only. Throws
 * a 400 QueryError (ERR_INVALID_FORMULA) naming the position and the problem.
 */
export function compileFormula(text: string, options: ColumnFormulaOptions, self?: FormulaColumn): CompiledFormula {
  const ast = parseFormula(text);
  const ctx = columnFormulaContext(options, self ? [self.id] : []);
  const node = compileNode(ctx, ast);
  // A text value is cut at the text cap, in filters and sorts as in the output.
  const compiled = node.type === 'string' ? { ...node, sql: cappedText(options.dialect, node), capped: true } : node;
  return { type: compiled.type, expression: compiled.sql, select: selectValue(options.dialect as Dialect, compiled), references: fieldReferences(ast) };
}

/**
 * A number the caller computes (a rollup's aggregate) as a formula operand:
 * pg reads it as float8, blank past the double's range instead of failing.
 */
export function formulaNumber(dialect: Dialect, value: Fragment): Fragment {
  return dialect === 'pg' ? pgDouble(pgExact(value)) : value;
}

/** The names of the supported functions (README lists them). */
export const FORMULA_FUNCTIONS: string[] = [...Object.keys(FUNCTIONS), ...SYSTEM_FUNCTIONS].sort();

export { FORMULA_LIMITS, parseFormula, presentFormulaValue, formulaTypeOf, fieldReferences };
export type { FormulaType, FormulaColumn, ColumnFormulaOptions };
