import type { ColumnInfo } from '@tabula/contracts';
import { isCreatedAt, isUpdatedAt } from '../model/column-roles';
import { formulaPlanOf } from '../model/formula-columns';
import { linkPlanOf } from '../model/link-columns';
import { relationPlanOf } from '../model/relation-columns';

/** A SQL expression and its bindings. */
export interface SqlPart {
  sql: string;
  bindings: unknown[];
}

const NUMERIC = new Set(['Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Year', 'AutoNumber', 'ID']);
const TEXT = new Set(['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'ID', 'UUID']);
/** `json_build_object` takes at most 100 arguments (50 columns). */
const MAX_COLUMNS = 50;

/**
 * The SQL form of one column's value as record.presenter.ts formats it (pg), or
 * undefined when this column is only formatted in JS. Identifiers come from
 * metadata and are bound as `??`.
 */
function valueSql(c: ColumnInfo): SqlPart | undefined {
  if (formulaPlanOf(c) || linkPlanOf(c) || relationPlanOf(c)) return undefined;
  const dt = (c.dt ?? '').toLowerCase();
  const id = { sql: '??', bindings: [c.column_name] };
  if (c.uidt === 'DateTime' || isCreatedAt(c) || isUpdatedAt(c)) {
    if (!dt.startsWith('timestamp')) return undefined;
    const utc = /with time zone|tz/.test(dt) ? `?? at time zone 'UTC'` : '??';
    return { sql: `to_char(${utc}, 'YYYY-MM-DD HH24:MI:SS') || '+00:00'`, bindings: [c.column_name] };
  }
  if (c.uidt === 'Date') return dt === 'date' ? { sql: `to_char(??, 'YYYY-MM-DD')`, bindings: [c.column_name] } : undefined;
  if (c.uidt === 'Checkbox') return dt === 'boolean' ? { sql: 'coalesce(??, false)', bindings: [c.column_name] } : undefined;
  if (NUMERIC.has(c.uidt) && /^(smallint|integer|bigint|int|numeric|decimal|double precision|real)\b/.test(dt)) return id;
  if (TEXT.has(c.uidt) && /^(text|character varying|varchar|character|char|uuid)\b/.test(dt)) return id;
  return undefined;
}

/**
 * `json_build_object('Title', value, …)` of a stored row, equal as JSON to
 * `presentRecord(columns, row)` (key order included), or undefined when some
 * column is formatted only in JS (attachments, JSON, times, computed
 * columns…), when a title is an integer (JS would reorder it) or when the
 * table is too wide: callers then take the JS path.
 */
export function recordJsonSql(columns: ColumnInfo[]): SqlPart | undefined {
  if (built.has(columns)) return built.get(columns);
  const part = build(columns);
  built.set(columns, part);
  return part;
}

/** Per column list (a model's `outputColumns` lives as long as its cached table handle). */
const built = new WeakMap<ColumnInfo[], SqlPart | undefined>();

function build(columns: ColumnInfo[]): SqlPart | undefined {
  if (!columns.length || columns.length > MAX_COLUMNS) return undefined;
  const sql: string[] = [];
  const bindings: unknown[] = [];
  for (const c of columns) {
    const value = valueSql(c);
    if (!value || /^\d+$/.test(c.title)) return undefined;
    sql.push(`?::text, ${value.sql}`);
    bindings.push(c.title, ...value.bindings);
  }
  return { sql: `json_build_object(${sql.join(', ')})`, bindings };
}
