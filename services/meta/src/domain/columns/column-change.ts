import { errors } from '@tabula/http';
import { isLinkUidt, isThroughLinkUidt } from '@tabula/query';
import type { ColumnRow } from '../../repositories/column.repository';
import type { Dialect } from '../../ddl/dialect';
import { isVirtual, physicalTypeOf, systemPointer } from '../../ddl/uidt';
import type { ColumnPatch } from './column-input';
import { checkTitleFree, checkUidt, optionsOf } from './column-draft';
import { columnNameOf, uniqueName } from '../rules/name-rules';
import { cdfProblem } from '../rules/value-rules';
import { formulaOptions, formulaTextOf } from './formula-column';

/** Applies a patch to a column's metadata (validated), without touching the database. */
export function patchedColumn(before: ColumnRow, patch: ColumnPatch, existing: ColumnRow[], dialect: Dialect): ColumnRow {
  const uidt = patch.uidt ?? before.uidt;
  if (uidt !== before.uidt) {
    checkUidt(uidt);
    if (before.system || before.pk) throw errors.badRequest(`The type of system column '${before.title}' cannot change`);
    if (uidt === 'ID') throw errors.badRequest('A table has exactly one primary key: its system Id column');
  }
  if ((uidt === 'Formula') !== (before.uidt === 'Formula')) {
    throw errors.badRequest(`Column '${before.title}' cannot change between Formula and ${uidt === 'Formula' ? before.uidt : uidt}: delete it and add a new column`);
  }
  const after: ColumnRow = { ...before, uidt };
  if (patch.title !== undefined) {
    checkTitleFree(patch.title, existing, before.id);
    after.title = patch.title;
  }
  const pointer = systemPointer(uidt);
  if (pointer) after.column_name = pointer;
  else if (isVirtual(uidt)) after.column_name = null;
  else if (before.system || before.pk) after.column_name = before.column_name;
  else if ((patch.column_name !== undefined && patch.column_name !== before.column_name) || !before.column_name || systemPointer(before.uidt)) {
    const wanted = columnNameOf(patch.column_name ?? undefined, after.title);
    after.column_name = uniqueName(wanted, existing.filter((c) => c.id !== before.id).map((c) => c.column_name ?? ''));
  }
  after.dt = physicalTypeOf(dialect, uidt)?.dt ?? (before.system ? before.dt : null);
  for (const flag of ['rqd', 'unique', 'au'] as const) if (patch[flag] !== undefined) after[flag] = patch[flag]!;
  if (patch.cdf !== undefined) after.cdf = patch.cdf === null || patch.cdf === '' ? null : String(patch.cdf);
  if (patch.description !== undefined) after.description = patch.description ?? null;
  if (patch.meta !== undefined) after.meta = (patch.meta as Record<string, unknown> | null) ?? null;
  if (patch.dtxp !== undefined && !uidt.endsWith('Select')) after.dtxp = patch.dtxp == null ? null : String(patch.dtxp);
  if (patch.dtxs !== undefined) after.dtxs = patch.dtxs == null ? null : String(patch.dtxs);
  after.col_options = uidt === 'Formula'
    ? formulaOptions(formulaTextOf(patch as Record<string, unknown>) ?? before.col_options?.formula_raw, after, existing, dialect)
    : optionsOf({ ...patch, uidt }, uidt === before.uidt || before.uidt.endsWith('Select') ? before.col_options : null);
  // A link's colOptions are fixed at creation; a lookup's or rollup's change after this check (update-column).
  if (isLinkUidt(uidt) || isThroughLinkUidt(uidt)) after.col_options = before.col_options;
  const problem = cdfProblem(uidt, after.cdf, after.col_options?.options?.map((o) => o.title) ?? []);
  if (problem) throw errors.badRequest(problem);
  return after;
}
