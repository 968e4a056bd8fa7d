import { errors, type AppError } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { IntegrationRow } from '../repositories/integration.repository';

/**
 * Who may manage integrations at all (org creator or above, never a
 * base-scoped token) is declared on the contracts (`integration.manage`);
 * what stays here are the rules on one integration.
 */

/** How much of a config a caller sees. */
export type ConfigVisibility = 'whole' | 'masked';

/** 404 of an integration id: also the answer for one the caller may not know exists. */
export function integrationNotFound(id: string): AppError {
  return errors.notFound('ERR_INTEGRATION_NOT_FOUND', `Integration '${id}' not found`);
}

/** Private integrations exist for their creator alone. */
export function canSee(row: IntegrationRow, principal: Principal): boolean {
  return !row.is_private || row.created_by === principal.id;
}

/** Its creator sees the whole config; other managers see it with the secrets masked. */
export function configVisibility(row: IntegrationRow, principal: Principal): ConfigVisibility {
  return row.created_by === principal.id ? 'whole' : 'masked';
}

/**
 * 403 when a caller who sees a config only masked (anyone but its creator)
 * would keep its stored secrets while changing or copying it: they must enter
 * the secrets again, so a shared integration's password or API key can never
 * be redirected to a host of their choosing nor read from a copy.
 */
export function assertMayKeepSecrets(row: IntegrationRow, principal: Principal, inherited: string[]): void {
  if (inherited.length === 0 || configVisibility(row, principal) === 'whole') return;
  throw errors.forbidden(`Forbidden - only the integration's creator may keep its stored secrets; enter ${inherited.join(', ')} again`);
}

/** Only the creator edits a private integration; public ones any manager. */
export function assertMayEdit(row: IntegrationRow, principal: Principal): void {
  if (row.is_private && row.created_by !== principal.id) throw errors.forbidden('Forbidden - a private integration can only be changed by its creator');
}
