import { AppError, appError, errors } from '@tabula/http';
import {
  Fragment, compileFormula, isQueryError, isThroughLinkUidt, parseFormula, fieldReferences, type CompiledFormula, type FormulaColumn, type FormulaType,
} from '@tabula/query';
import type { ColumnRow } from '../../repositories/column.repository';
import type { Dialect } from '../../ddl/dialect';

type Compiled = { sql: Fragment; type: FormulaType };

/** colOptions of a Formula column: `formula` names fields by id (rename-proof), `formula_raw` as the user wrote it. */
export interface FormulaOptions extends Record<string, unknown> {
  formula: string;
  formula_raw: string;
}

function asFormulaColumn(c: ColumnRow): FormulaColumn {
  return {
    id: c.id, title: c.title, column_name: c.column_name ?? '', uidt: c.uidt, dt: c.dt ?? undefined, pk: !!c.pk,
    colOptions: c.col_options as FormulaColumn['colOptions'],
  };
}

/** The formula text of a create/update body: colOptions.formula_raw|formula, or NocoDB's top-level fields. */
export function formulaTextOf(body: Record<string, unknown>): string | undefined {
  const options = (body.colOptions ?? {}) as Record<string, unknown>;
  const text = options.formula_raw ?? options.formula ?? body.formula_raw ?? body.formula;
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw errors.badRequest('formula must be text');
  return text;
}

/** Rewrites `{Title}` references as `{columnId}` (positions from the parser, strings untouched). */
function toIdForm(text: string, columns: ColumnRow[]): string {
  const find = (name: string) => columns.find((c) => c.title === name) ?? columns.find((c) => c.id === name)
    ?? columns.find((c) => c.title.toLowerCase() === name.toLowerCase());
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === '{') {
      const close = text.indexOf('}', i);
      const column = find(text.slice(i + 1, close).trim());
      out += column ? `{${column.id}}` : text.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

/** pg: a typed NULL per formula type (the formula is run when saved; an untyped NULL can be ambiguous there). */
const PG_NULL: Partial<Record<FormulaType, string>> = {
  number: '(NULL)::float8', string: '(NULL)::text', boolean: '(NULL)::boolean', date: '(NULL)::date', datetime: '(NULL)::timestamp',
};

/**
 * Lookups, rollups and link counts type-check by their value's type and stand
 * in as NULL of that type (the data service compiles their SQL).
 */
function typeOnly(dialect: Dialect) {
  const placeholder = (type: FormulaType): Compiled => ({ sql: new Fragment((dialect === 'pg' && PG_NULL[type]) || 'NULL', []), type });
  return (column: FormulaColumn): Compiled | undefined => {
    if (column.uidt === 'Links') return placeholder('number');
    const type = (column.colOptions as { result_type?: string } | undefined)?.result_type;
    if (isThroughLinkUidt(column.uidt) && type) return placeholder(type as FormulaType);
    return undefined;
  };
}

function compileOver(form: string, self: ColumnRow, existing: ColumnRow[], dialect: Dialect): CompiledFormula {
  const selfColumn = asFormulaColumn(self);
  const columns = [...existing.filter((c) => c.id !== self.id).map(asFormulaColumn), selfColumn];
  try {
    return compileFormula(form, { dialect, columns, virtual: typeOnly(dialect) }, selfColumn);
  } catch (err) {
    if (isQueryError(err)) throw new AppError(err.status, err.code, err.message, err.details);
    throw err;
  }
}

/**
 * Validates a formula against the table's columns (parse, types, cycles) and
 * returns the options to store. 400 ERR_INVALID_FORMULA names the position.
 */
export function formulaOptions(text: string | undefined, self: ColumnRow, existing: ColumnRow[], dialect: Dialect): FormulaOptions {
  if (text === undefined || text.trim() === '') throw appError('ERR_INVALID_FORMULA', 'A Formula column needs a formula (colOptions.formula)');
  const others = existing.filter((c) => c.id !== self.id);
  const options = { formula: toIdForm(text, others), formula_raw: text };
  const withOptions = { ...self, col_options: options as never };
  // The text as written (positions in errors are the user's), then the stored id form.
  for (const form of [text, options.formula]) compileOver(form, withOptions, existing, dialect);
  return options;
}

/** The SQL of a (validated) formula column, as meta compiles it: lookups and rollups as typed NULLs. */
export function compiledFormulaOf(column: ColumnRow, existing: ColumnRow[], dialect: Dialect): CompiledFormula {
  return compileOver((column.col_options as Partial<FormulaOptions> | null)?.formula ?? '', column, existing, dialect);
}

/** Formula columns of a table that reference a column (by id). */
export function formulasUsing(columnId: string, columns: ColumnRow[]): ColumnRow[] {
  return columns.filter((c) => {
    const formula = (c.col_options as Partial<FormulaOptions> | null)?.formula;
    if (c.uidt !== 'Formula' || !formula) return false;
    try {
      return fieldReferences(parseFormula(formula)).includes(columnId);
    } catch {
      return false;
    }
  });
}
