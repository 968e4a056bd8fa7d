import type { ColumnMeta, Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import { isFormulaDatetimeUidt, isFormulaNumberUidt, isFormulaTextUidt } from '../column/uidt-catalogue';
import type { FormulaType } from './formula.ast';
import { formulaError } from './formula.error';
import { parseFormula } from './formula.parser';
import { compileNode, type FormulaContext } from './formula.compiler';
import { tpl, type Compiled } from './formula.sql';

/** A column a formula may reference; Formula columns carry their text in colOptions.formula. */
export type FormulaColumn = ColumnMeta & { colOptions?: { formula?: string; formula_raw?: string } & Record<string, unknown> };

/** The formula type of a physical column, or undefined when formulas cannot use it. */
export function formulaTypeOf(column: ColumnMeta): FormulaType | undefined {
  if (column.uidt === 'ID') return column.dt && /char|text|uuid/i.test(column.dt) ? 'string' : 'number';
  if (isFormulaNumberUidt(column.uidt)) return 'number';
  if (isFormulaTextUidt(column.uidt)) return 'string';
  if (column.uidt === 'Checkbox') return 'boolean';
  if (column.uidt === 'Date') return 'date';
  if (isFormulaDatetimeUidt(column.uidt)) return 'datetime';
  return undefined;
}

/** Options of {@link columnFormulaContext}. */
export interface ColumnFormulaOptions {
  dialect: Dialect;
  columns: FormulaColumn[];
  /** Table alias qualifying column names (`t.col`). */
  alias?: string;
  /** SQL of virtual columns the caller computes (Lookup, Rollup, Links), by column id. */
  virtual?: (column: FormulaColumn) => Compiled | undefined;
}

function physical(d: Dialect, column: FormulaColumn, type: FormulaType, alias?: string): Compiled {
  const id = new Fragment('??', [alias ? `${alias}.${column.column_name}` : column.column_name]);
  // MySQL: numbers as doubles (integer arithmetic fails on overflow, unsigned ids below zero).
  if (d === 'mysql2') return { sql: type === 'number' ? tpl('$0 + 0e0', id) : id, type };
  if (d !== 'pg') return { sql: id, type };
  // pg: one representation per type (float8, text, UTC timestamp) so mixed operands agree.
  if (type === 'number') return { sql: tpl('($0)::float8', id), type };
  if (type === 'string') return { sql: tpl('($0)::text', id), type };
  if (type === 'datetime') return { sql: column.dt === 'timestamp' ? id : tpl(`($0 AT TIME ZONE 'UTC')`, id), type };
  return { sql: id, type };
}

/**
 * A compile context whose `{Field}` references name the table's columns (by
 * title, case-insensitively as a fallback, or by id). Formula columns are
 * compiled in place, so formulas may use formulas; a cycle is refused.
 */
export function columnFormulaContext(options: ColumnFormulaOptions, visiting: string[] = []): FormulaContext {
  const { dialect, columns } = options;
  const find = (name: string) => columns.find((c) => c.title === name) ?? columns.find((c) => c.id === name)
    ?? columns.find((c) => c.title.toLowerCase() === name.toLowerCase());
  return {
    dialect,
    system(name, pos) {
      const column = name === 'RECORD_ID' ? columns.find((c) => c.pk) : columns.find((c) => c.uidt === 'LastModifiedTime');
      if (!column) throw formulaError(`${name}: the table has no ${name === 'RECORD_ID' ? 'primary key' : 'last modified time'} column`, pos);
      // RECORD_ID(): the key as it is (a number for an integer key, as NocoDB answers).
      return physical(dialect, column, formulaTypeOf(column) ?? (name === 'RECORD_ID' ? 'string' : 'datetime'), options.alias);
    },
    resolve(name, pos) {
      const column = find(name);
      if (!column) throw formulaError(`unknown field {${name}}`, pos);
      if (column.uidt === 'Formula') {
        if (visiting.includes(column.id)) {
          const path = [...visiting, column.id].map((id) => columns.find((c) => c.id === id)?.title ?? id);
          throw formulaError(`formulas reference each other in a cycle: ${path.join(' → ')}`, pos);
        }
        const text = column.colOptions?.formula;
        if (!text) throw formulaError(`field {${column.title}} has no formula`, pos);
        return compileNode(columnFormulaContext(options, [...visiting, column.id]), parseFormula(text));
      }
      const computed = options.virtual?.(column);
      if (computed) return computed;
      const type = formulaTypeOf(column);
      if (!type) throw formulaError(`field {${column.title}} (${column.uidt}) cannot be used in a formula`, pos);
      const value = physical(dialect, column, type, options.alias);
      // (pg: only a json/jsonb column is valid JSON by construction.)
      const json = column.uidt === 'JSON' && (dialect !== 'pg' || /json/i.test(column.dt ?? ''));
      return json ? { ...value, json: true } : value;
    },
  };
}
