import type { ColumnInfo } from '@tabula/contracts';
import { parseInstant, utcText } from '../values/date.coercers';
import { isCreatedAt, isUpdatedAt } from '../model/column-roles';
import { isJsonNumberUidt, isJsonParsedUidt, presentFormulaValue } from '@tabula/query';
import { codePlanOf, formulaPlanOf } from '../model/formula-columns';
import { countsLinks, linkPlanOf } from '../model/link-columns';
import { relationPlanOf, type RelationValuePlan } from '../model/relation-columns';

/** A record as the API returns it: column title → formatted value. */
export type ApiRecord = Record<string, unknown>;

type Format = (value: unknown) => unknown;

function presentDateTime(value: unknown): string | unknown {
  // pg hands timestamps over as Date objects: format them without re-parsing.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : `${utcText(value)}+00:00`;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?$/.test(value)) {
    return `${value.replace('T', ' ').slice(0, 19).padEnd(19, ':00')}+00:00`;
  }
  const instant = parseInstant(typeof value === 'string' ? value.replace(/(\.\d+)/, '') : value);
  return instant ? `${utcText(instant)}+00:00` : value;
}

function parseJson(value: unknown, asArray: boolean): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return asArray && !Array.isArray(parsed) ? [] : parsed;
  } catch {
    return asArray ? [] : value;
  }
}

const asNumber = (value: unknown): unknown => {
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
};

/** Lookup lists are JSON arrays; scalar lookups and rollups format as their kind. */
function presentRelationValue(rel: RelationValuePlan): Format {
  if (rel.list && rel.nested) return (v) => (parseJson(v, true) as unknown[]).flatMap((item) => {
    const inner = typeof item === 'string' && item.startsWith('[') ? parseJson(item, true) : item;
    return Array.isArray(inner) ? inner : inner === null ? [] : [inner];
  });
  if (rel.list) return (v) => parseJson(v, true);
  if (rel.kind === 'number') return asNumber;
  if (rel.kind === 'checkbox') return (v) => v === true || v === 1 || v === '1' || v === 't' || v === 'true';
  if (rel.kind === 'datetime') return presentDateTime;
  if (rel.kind === 'date') return (v) => (v instanceof Date ? utcText(v).slice(0, 10) : String(v).slice(0, 10));
  return (v) => v;
}

/** The formatter of non-null values of a column, chosen once per column (list pages format thousands of values). */
function formatOf(column: ColumnInfo): Format {
  const code = codePlanOf(column);
  if (code?.source) return cachedFormat(code.source);
  if (code?.button) {
    const { type, label, fk_webhook_id } = code.button;
    return type === 'url' ? (v) => ({ type, label, url: v }) : () => ({ type, label, fk_webhook_id });
  }
  const link = linkPlanOf(column);
  if (link) return countsLinks(column, link) ? asNumber : (v) => parseJson(v, false);
  const rel = relationPlanOf(column);
  if (rel) return presentRelationValue(rel);
  const formula = formulaPlanOf(column);
  if (formula) return (v) => (formula.compiled ? presentFormulaValue(formula.compiled.type, v) : null);
  if (column.uidt === 'DateTime' || isCreatedAt(column) || isUpdatedAt(column)) return presentDateTime;
  if (column.uidt === 'Date') return (v) => (v instanceof Date ? utcText(v).slice(0, 10) : String(v).slice(0, 10));
  if (isJsonNumberUidt(column.uidt)) return asNumber;
  if (column.uidt === 'ID') return (v) => (typeof v === 'string' && /^\d+$/.test(v) ? asNumber(v) : v);
  if (column.uidt === 'Checkbox') return (v) => v === true || v === 1 || v === '1' || v === 't' || v === 'true';
  if (isJsonParsedUidt(column.uidt)) return (v) => parseJson(v, column.uidt === 'Attachment');
  return (v) => v;
}

const formats = new WeakMap<ColumnInfo, Format>();

function cachedFormat(column: ColumnInfo): Format {
  let format = formats.get(column);
  if (!format) {
    format = formatOf(column);
    formats.set(column, format);
  }
  return format;
}

/**
 * Formats one stored value per compat-notes "Records (v1)": DateTime as
 * `YYYY-MM-DD HH:mm:ss+00:00`, Date as `YYYY-MM-DD`, numbers as numbers,
 * Checkbox as boolean, Attachment as an array, JSON parsed.
 */
export function presentValue(column: ColumnInfo, value: unknown): unknown {
  if (value === null || value === undefined) {
    if (column.uidt === 'Button' && codePlanOf(column)) return cachedFormat(column)(null);
    return column.uidt === 'Checkbox' ? false : null;
  }
  return cachedFormat(column)(value);
}

/** Turns a stored row into the API record for the given columns (keys: titles). */
export function presentRecord(columns: ColumnInfo[], row: Record<string, unknown>): ApiRecord {
  const out: ApiRecord = {};
  for (const c of columns) out[c.title] = presentValue(c, row[c.column_name]);
  return out;
}

const jsonTexts = new WeakMap<object, string>();

/**
 * `JSON.stringify` of records, remembered per array: a bulk insert's response
 * and its event carry the same rows, so they are serialised once.
 */
export function recordsJson(records: ApiRecord[]): string {
  let text = jsonTexts.get(records);
  if (text === undefined) {
    text = JSON.stringify(records);
    jsonTexts.set(records, text);
  }
  return text;
}

/** Registers the JSON text of records made elsewhere (the database built it): {@link recordsJson} answers it as is. */
export function rememberJson(records: ApiRecord[], text: string): ApiRecord[] {
  jsonTexts.set(records, text);
  return records;
}
