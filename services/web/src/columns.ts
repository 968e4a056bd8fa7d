import type { Column } from './api';
// The one catalogue of column types (libs/query): a pure module, bundled into the app as it is.
import { isSelectUidt, uidtEntry } from '../../../libs/query/src/column/uidt-catalogue';
import { isNumberValued, isRelationColumn, relationText } from './relations';

export { isSelectUidt };

/** Column types offered when creating a column (the API's `uidt`s). */
export const COLUMN_TYPES = [
  { uidt: 'SingleLineText', label: 'Text' },
  { uidt: 'LongText', label: 'Long text' },
  { uidt: 'Number', label: 'Number' },
  { uidt: 'Decimal', label: 'Decimal' },
  { uidt: 'Currency', label: 'Currency' },
  { uidt: 'Percent', label: 'Percent' },
  { uidt: 'Checkbox', label: 'Checkbox' },
  { uidt: 'SingleSelect', label: 'Single select' },
  { uidt: 'MultiSelect', label: 'Multi select' },
  { uidt: 'Date', label: 'Date' },
  { uidt: 'DateTime', label: 'Date and time' },
  { uidt: 'Email', label: 'E-mail' },
  { uidt: 'URL', label: 'URL' },
  { uidt: 'PhoneNumber', label: 'Phone number' },
  { uidt: 'Rating', label: 'Rating' },
  { uidt: 'Attachment', label: 'Attachment' },
  { uidt: 'JSON', label: 'JSON' },
  { uidt: 'Formula', label: 'Formula' },
] as const;

/** A cell the grid edits: stored by the user (not virtual, system or automatic); attachments go through the expanded record. */
export function isEditable(column: Column): boolean {
  const entry = uidtEntry(column.uidt);
  return !column.pk && !column.system && !!entry && entry.kind === 'physical' && !entry.auto && column.uidt !== 'Attachment';
}

export function isNumeric(column: Column): boolean {
  return uidtEntry(column.uidt)?.compare === 'number';
}

export function isDateColumn(column: Column): boolean {
  const compare = uidtEntry(column.uidt)?.compare;
  return compare === 'date' || compare === 'datetime';
}

/** A cell's value as text (React renders it as text: markup in a value stays text). */
export function cellText(column: Column, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (column.uidt === 'Checkbox') return value ? '✓' : '';
  if (isRelationColumn(column)) return relationText(column, value);
  if (column.uidt === 'Attachment') {
    const files = Array.isArray(value) ? value : [];
    return files.map((f: { title?: string }) => f?.title ?? 'file').join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The value an editor's text becomes in the record body. */
export function parseInput(column: Column, text: string): unknown {
  if (text === '') return null;
  if (isNumeric(column)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (column.uidt === 'Checkbox') return text === 'true' || text === '1';
  return text;
}

/** The NocoDB comparison operators the filter builder offers, by column kind. */
export function operatorsFor(column: Column): { op: string; label: string; unary?: boolean }[] {
  const blank = [{ op: 'blank', label: 'is blank', unary: true }, { op: 'notblank', label: 'is not blank', unary: true }];
  if (column.uidt === 'Checkbox') return [{ op: 'checked', label: 'is checked', unary: true }, { op: 'notchecked', label: 'is not checked', unary: true }];
  if (isNumeric(column) || isNumberValued(column)) return [{ op: 'eq', label: '=' }, { op: 'neq', label: '≠' }, { op: 'gt', label: '>' }, { op: 'ge', label: '≥' }, { op: 'lt', label: '<' }, { op: 'le', label: '≤' }, ...blank];
  if (column.uidt === 'SingleSelect') return [{ op: 'eq', label: 'is' }, { op: 'neq', label: 'is not' }, ...blank];
  if (isDateColumn(column)) return [{ op: 'eq', label: 'is' }, { op: 'lt', label: 'is before' }, { op: 'gt', label: 'is after' }, ...blank];
  return [{ op: 'like', label: 'contains' }, { op: 'nlike', label: 'does not contain' }, { op: 'eq', label: 'is' }, { op: 'neq', label: 'is not' }, ...blank];
}
