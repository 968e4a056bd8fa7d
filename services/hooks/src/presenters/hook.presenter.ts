import type { HookRow } from '../repositories/hook.repository';
import type { HookFilterRow } from '../repositories/hook-filter.repository';
import type { HookLogRow } from '../repositories/hook-log.repository';

/** A hook as the API shows it (never its secret). */
export function presentHook(row: HookRow): Record<string, unknown> {
  const { secret_sealed: _secret, ...rest } = row;
  return { ...rest, type: row.notification?.type ?? 'URL' };
}

/** A hook filter as the API shows it. */
export function presentHookFilter(row: HookFilterRow): Record<string, unknown> {
  return { ...row, fk_view_id: null };
}

/** A log row as the API shows it. */
export function presentHookLog(row: HookLogRow): Record<string, unknown> {
  return row as unknown as Record<string, unknown>;
}
