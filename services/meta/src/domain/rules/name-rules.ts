import { errors } from '@tabula/http';

const STRICT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Turns free text into a strict identifier (letters, digits, underscore; ≤ 63). */
export function identifierFrom(text: string, fallback: string): string {
  let name = text.trim().replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (!name) name = fallback;
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return name.slice(0, 63);
}

/**
 * A table's physical name (compat-notes): `$`/`?` become `_`; `.`, `/`, `\` are
 * refused; anything else outside the strict pattern (quotes, spaces, `;`) is
 * refused too, so client text reaching DDL is always a plain identifier.
 */
export function tableNameOf(requested: string | undefined, title: string): string {
  if (requested === undefined || requested === '') return identifierFrom(title, 'table');
  if (/[./\\]/.test(requested)) throw errors.badRequest(`Table name '${requested}' may not contain '.', '/' or '\\'`);
  const name = requested.replace(/[$?]/g, '_');
  if (name.length > 63) throw errors.badRequest('Table name exceeds 63 characters');
  if (!STRICT.test(name)) throw errors.badRequest(`Table name '${requested}' may contain only letters, digits and '_'`);
  return name;
}

/**
 * Names the databases keep for themselves: PostgreSQL's system columns, MySQL's
 * `_rowid` alias and SQLite's rowid aliases. A user column with one of them
 * cannot be created (PostgreSQL) or would shadow the row id (MySQL, SQLite).
 */
export const RESERVED_COLUMN_NAMES = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid', '_rowid', 'rowid', '_rowid_']);

/** True when a physical column name is reserved by one of the supported databases (any case). */
export function isReservedColumnName(name: string): boolean {
  return RESERVED_COLUMN_NAMES.has(name.toLowerCase());
}

/**
 * A column's physical name: validated when given (after the same replacements;
 * reserved system names refused with 400), else generated from the title
 * (a reserved result gets a `_field` suffix).
 */
export function columnNameOf(requested: string | undefined, title: string): string {
  if (requested === undefined || requested === '') {
    const generated = identifierFrom(title, 'field');
    return isReservedColumnName(generated) ? `${generated}_field` : generated;
  }
  if (/[./\\]/.test(requested)) throw errors.badRequest(`Column name '${requested}' may not contain '.', '/' or '\\'`);
  const name = requested.replace(/[$?\s-]/g, '_');
  if (!STRICT.test(name)) throw errors.badRequest(`Column name '${requested}' may contain only letters, digits and '_' (≤ 63)`);
  if (isReservedColumnName(name)) throw errors.badRequest(`Column name '${requested}' is reserved by the database (system column)`);
  return name;
}

/** Makes a name unique against the taken ones (case-insensitive), appending _1, _2… */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const lower = new Set([...taken].map((n) => n.toLowerCase()));
  if (!lower.has(name.toLowerCase())) return name;
  for (let i = 1; ; i += 1) {
    const candidate = `${name.slice(0, 60)}_${i}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
