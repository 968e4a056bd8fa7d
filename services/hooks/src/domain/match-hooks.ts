import { filterFromRows, matchesFilter, type ColumnMeta, type FilterGroup } from '@tabula/query';
import type { HookRow } from '../repositories/hook.repository';
import type { HookFilterRow } from '../repositories/hook-filter.repository';
import { plainOperation, v2Operation, type EventOperation } from './payload-builder';

type Row = Record<string, unknown>;

/** The rows (and their previous versions) a hook fires for. */
export interface SelectedRows {
  rows: Row[];
  previousRows?: Row[];
}

/** v3 hooks list plain operations (bulk folded in); v1/v2 hooks name one operation, bulk ones by their bulk name. */
export function hookMatchesOperation(hook: Pick<HookRow, 'version' | 'operation'>, op: EventOperation): boolean {
  if (hook.version === 'v3') {
    const ops = Array.isArray(hook.operation) ? hook.operation : [hook.operation];
    return ops.includes(plainOperation(op));
  }
  const name = Array.isArray(hook.operation) ? hook.operation[0] : hook.operation;
  return name === v2Operation(op);
}

function changed(prev: Row | undefined, next: Row, column: ColumnMeta): boolean {
  if (!prev) return true;
  return JSON.stringify(prev[column.title] ?? null) !== JSON.stringify(next[column.title] ?? null);
}

/** The filter AST of a hook's stored filters; null when it has none. */
export function hookFilter(filters: HookFilterRow[], columns: readonly ColumnMeta[]): FilterGroup | null {
  if (!filters.length) return null;
  const ast = filterFromRows(filters.map((f) => ({ ...f, value: f.value as never })), columns);
  return ast.children.length ? ast : null;
}

/**
 * Keeps the rows a hook fires for (compat-notes "Hooks"): on update, only rows
 * where one of `trigger_fields` changed (when `trigger_field` is set), and with
 * conditions only rows that match them now but did not before the update.
 */
export function selectRows(
  hook: HookRow, op: EventOperation, change: SelectedRows, columns: readonly ColumnMeta[], filter: FilterGroup | null,
): SelectedRows {
  const isUpdate = plainOperation(op) === 'update';
  const triggerColumns = hook.trigger_field && hook.trigger_fields.length
    ? columns.filter((c) => hook.trigger_fields.includes(c.id) || hook.trigger_fields.includes(c.title))
    : null;
  const rows: Row[] = [];
  const previousRows: Row[] = [];
  change.rows.forEach((row, i) => {
    const prev = change.previousRows?.[i];
    if (isUpdate && triggerColumns && !triggerColumns.some((c) => changed(prev, row, c))) return;
    if (filter && !matchesFilter(filter, row, columns)) return;
    if (filter && isUpdate && prev && matchesFilter(filter, prev, columns)) return;
    rows.push(row);
    if (prev) previousRows.push(prev);
  });
  return { rows, previousRows: change.previousRows ? previousRows : undefined };
}
