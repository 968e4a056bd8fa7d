import { errors } from '@tabula/http';
import type { ColumnRow } from '../../repositories/column.repository';
import { userTable, type SourceHandle } from '../../ddl/dialect';
import { isPhysical } from '../../ddl/uidt';
import { normaliseOptions, renamedOptions } from './select-options';
import { valueFits } from '../rules/value-rules';

const MAX_NAMED_ROWS = 20;

function splitValues(value: unknown): string[] {
  return String(value).split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * Before a type change: refuses with a 400 naming the rows (by primary key)
 * whose value cannot convert. A select target without options gets one option
 * per distinct existing value, like NocoDB.
 */
export async function prepareTypeChange(ddl: SourceHandle, tableName: string, pkName: string, before: ColumnRow, after: ColumnRow): Promise<void> {
  if (before.uidt === after.uidt || !isPhysical(before.uidt) || !isPhysical(after.uidt) || !before.column_name) return;
  const rows = (await userTable(ddl, tableName).select({ pk: pkName, v: before.column_name }).whereNotNull(before.column_name)) as { pk: unknown; v: unknown }[];
  if (after.uidt.endsWith('Select') && !(after.col_options?.options?.length)) {
    const titles = [...new Set(rows.flatMap((r) => (after.uidt === 'MultiSelect' ? splitValues(r.v) : [String(r.v)])))];
    after.col_options = { options: normaliseOptions(titles.map((title) => ({ title }))) };
  }
  const titles = after.col_options?.options?.map((o) => o.title) ?? [];
  const bad = rows.filter((r) => !valueFits(after.uidt, typeof r.v === 'boolean' ? String(r.v) : r.v, titles));
  if (bad.length) {
    const ids = bad.slice(0, MAX_NAMED_ROWS).map((r) => String(r.pk)).join(', ');
    throw errors.badRequest(
      `Cannot convert '${before.title}' to ${after.uidt}: ${bad.length} row(s) hold values that do not convert (rows ${ids}${bad.length > MAX_NAMED_ROWS ? ', …' : ''})`,
      { rows: bad.slice(0, 100).map((r) => r.pk) },
    );
  }
}

/** After an option rename: rewrites the stored values (single: equality; multi: per list item). */
export async function rewriteRenamedOptions(ddl: SourceHandle, tableName: string, pkName: string, before: ColumnRow, after: ColumnRow): Promise<void> {
  if (before.uidt !== after.uidt || !after.uidt.endsWith('Select') || !after.column_name) return;
  const renames = renamedOptions(before.col_options?.options ?? [], after.col_options?.options ?? []);
  if (!renames.length) return;
  const col = after.column_name;
  if (after.uidt === 'SingleSelect') {
    for (const r of renames) await userTable(ddl, tableName).where(col, r.from).update({ [col]: r.to });
    return;
  }
  const map = new Map(renames.map((r) => [r.from, r.to]));
  const rows = (await userTable(ddl, tableName).select({ pk: pkName, v: col }).whereNotNull(col)) as { pk: unknown; v: string }[];
  for (const row of rows) {
    const parts = splitValues(row.v);
    if (!parts.some((p) => map.has(p))) continue;
    await userTable(ddl, tableName).where(pkName, row.pk as string).update({ [col]: parts.map((p) => map.get(p) ?? p).join(',') });
  }
}
