import { errors } from '@tabula/http';
import { newId } from '@tabula/db';
import { isNoCodeSourceUidt, isScaledUidt, isSelectUidt } from '@tabula/query';
import type { ColumnRow } from '../../repositories/column.repository';
import type { Dialect } from '../../ddl/dialect';
import { ALL_UIDTS, UNSUPPORTED_UIDTS, isVirtual, physicalTypeOf, systemPointer } from '../../ddl/uidt';
import type { ColumnFields } from './column-input';
import { columnNameOf, uniqueName } from '../rules/name-rules';
import { normaliseOptions, optionsFromDtxp } from './select-options';
import { cdfProblem } from '../rules/value-rules';
import { formulaOptions, formulaTextOf } from './formula-column';

const KNOWN = new Set<string>([...ALL_UIDTS, 'Order']);

/** Refuses unknown uidts and the ones of a later issue. */
export function checkUidt(uidt: string): void {
  if (!KNOWN.has(uidt)) throw errors.badRequest(`Unknown uidt '${uidt}'`);
  if (UNSUPPORTED_UIDTS.has(uidt)) throw errors.badRequest(`Column type ${uidt} is not yet supported`);
  if (uidt === 'Order') throw errors.badRequest('Column type Order is reserved for the system column nc_order');
}

/** Where a new column goes and what it must not clash with. */
export interface DraftContext {
  tableId: string;
  baseId: string;
  dialect: Dialect;
  existing: ColumnRow[];
  order: number;
}

/** Checks a title against the table's other columns (case-insensitive, like NocoDB). */
export function checkTitleFree(title: string, existing: ColumnRow[], selfId?: string): void {
  if (existing.some((c) => c.id !== selfId && c.title.toLowerCase() === title.toLowerCase())) {
    // details: what NocoDB's v3 paths answer as 422 ERR_DUPLICATE_IN_ALIAS (meta-v3.routes).
    const tableId = (existing[0] as { fk_model_id?: string } | undefined)?.fk_model_id;
    throw errors.badRequest(`Duplicate column title '${title}'`, { duplicateAlias: { type: 'column', alias: title, tableId } });
  }
}

/** Select options of a column body (colOptions, else legacy dtxp). */
export function optionsOf(fields: Partial<ColumnFields>, current: ColumnRow['col_options'] = null): ColumnRow['col_options'] {
  if (!isSelectUidt(fields.uidt ?? '')) return null;
  const given = fields.colOptions?.options ?? (fields.dtxp !== undefined ? optionsFromDtxp(fields.dtxp) : undefined);
  if (!given) return current ?? { options: [] };
  return { options: normaliseOptions(given, current?.options ?? []) };
}

/** Turns a validated column body into a metadata row for the table (not yet stored). */
export function buildColumnDraft(fields: ColumnFields, ctx: DraftContext): ColumnRow {
  checkUidt(fields.uidt);
  if (fields.uidt === 'ID' || fields.pk) throw errors.badRequest('A table has exactly one primary key: its system Id column');
  checkTitleFree(fields.title, ctx.existing);
  const id = newId('c');
  let colOptions = optionsOf(fields);
  const problem = cdfProblem(fields.uidt, fields.cdf, colOptions?.options?.map((o) => o.title) ?? []);
  if (problem) throw errors.badRequest(problem);
  let columnName: string | null = null;
  const pointer = systemPointer(fields.uidt);
  if (pointer) columnName = pointer;
  else if (!isVirtual(fields.uidt)) {
    const requested = columnNameOf(fields.column_name, fields.title);
    columnName = uniqueName(requested, ctx.existing.map((c) => c.column_name ?? ''));
  }
  const type = physicalTypeOf(ctx.dialect, fields.uidt);
  const draft: ColumnRow = {
    id, fk_model_id: ctx.tableId, base_id: ctx.baseId, title: fields.title, column_name: columnName, uidt: fields.uidt,
    dt: type?.dt ?? null, dtxp: isSelectUidt(fields.uidt) ? null : (fields.dtxp == null ? null : String(fields.dtxp)),
    dtxs: fields.dtxs == null ? (isScaledUidt(fields.uidt) ? '2' : null) : String(fields.dtxs),
    pk: false, pv: !!fields.pv, rqd: !!fields.rqd, unique: !!fields.unique, ai: false, au: !!fields.au,
    system: false, cdf: fields.cdf == null || fields.cdf === '' ? null : String(fields.cdf),
    meta: (fields.meta as Record<string, unknown> | null | undefined) ?? null, order: ctx.order,
    description: fields.description ?? null, col_options: colOptions,
  };
  if (fields.uidt === 'Formula') {
    colOptions = formulaOptions(formulaTextOf(fields as Record<string, unknown>), draft, ctx.existing, ctx.dialect);
    draft.col_options = colOptions;
  }
  const computed = computedOptions(fields as Record<string, unknown>, draft, ctx);
  if (computed) draft.col_options = computed;
  return draft;
}

const SOURCE_KEY: Record<string, string> = { QrCode: 'fk_qr_value_column_id', Barcode: 'fk_barcode_value_column_id' };
const BUTTON_TYPES = new Set(['url', 'webhook', 'script', 'ai']);

/**
 * colOptions of QrCode, Barcode and Button columns, from NocoDB's top-level
 * fields or colOptions: the source column of a code (a column of this table,
 * not itself a code, a button or a link), and a button's type, label, look
 * and (url type) formula, validated like a Formula column's.
 */
function computedOptions(fields: Record<string, unknown>, draft: ColumnRow, ctx: DraftContext): ColumnRow['col_options'] {
  const given = { ...(fields.colOptions as Record<string, unknown> | undefined ?? {}), ...fields };
  const key = SOURCE_KEY[draft.uidt];
  if (key) {
    const ref = given[key];
    const source = typeof ref === 'string' ? ctx.existing.find((c) => c.id === ref || c.title === ref) : undefined;
    if (!source) throw errors.badRequest(`${draft.uidt} column needs ${key}: a column of this table`);
    if (isNoCodeSourceUidt(source.uidt)) {
      throw errors.badRequest(`${draft.uidt} column cannot show a ${source.uidt} column`);
    }
    const options: Record<string, unknown> = { [key]: source.id };
    if (draft.uidt === 'Barcode') options.barcode_format = typeof given.barcode_format === 'string' ? given.barcode_format : 'CODE128';
    return options as ColumnRow['col_options'];
  }
  if (draft.uidt !== 'Button') return null;
  const type = given.type ?? 'url';
  if (typeof type !== 'string' || !BUTTON_TYPES.has(type)) throw errors.badRequest(`Button type must be one of ${[...BUTTON_TYPES].join(', ')}`);
  const text = (v: unknown, max = 255) => (typeof v === 'string' ? v.slice(0, max) : null);
  const options: Record<string, unknown> = {
    type, label: text(given.label) ?? 'Button', theme: text(given.theme) ?? 'solid', color: text(given.color) ?? 'brand', icon: text(given.icon),
    fk_webhook_id: text(given.fk_webhook_id), fk_script_id: text(given.fk_script_id),
  };
  // A url Button says where it goes (NocoDB: 400 "Invalid URL Formula"); a Button of no stated type may come without one.
  if (type === 'url' && (given.type !== undefined || formulaTextOf(given) !== undefined)) {
    Object.assign(options, formulaOptions(formulaTextOf(given), draft, ctx.existing, ctx.dialect));
  }
  return options as ColumnRow['col_options'];
}
