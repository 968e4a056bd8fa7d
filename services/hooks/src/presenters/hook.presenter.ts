import { maskNotification } from './hook-secrets.mask';
import type { HookRow } from '../repositories/hook.repository';
import type { HookFilterRow } from '../repositories/hook-filter.repository';
import type { HookLogRow } from '../repositories/hook-log.repository';

/**
 * A hook as the API shows it (never its signing secret). Callers that may not
 * edit hooks (`canEdit: false`) see its notification with secrets masked.
 */
export function presentHook(row: HookRow, canEdit = true): Record<string, unknown> {
  const { secret_sealed: _secret, ...rest } = row;
  const notification = canEdit ? row.notification : maskNotification(row.notification);
  return { ...rest, notification, type: row.notification?.type ?? 'URL' };
}

/** A hook filter as the API shows it. */
export function presentHookFilter(row: HookFilterRow): Record<string, unknown> {
  return { ...row, fk_view_id: null };
}

/** A log row as the API shows it. */
export function presentHookLog(row: HookLogRow): Record<string, unknown> {
  return row as unknown as Record<string, unknown>;
}
