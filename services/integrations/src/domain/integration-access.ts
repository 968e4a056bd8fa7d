import { errors } from '@tabula/http';
import { isSuper, type Principal } from '@tabula/auth';
import type { IntegrationRow } from '../repositories/integration.repository';

/** How much of a config a caller may see. */
export type ConfigVisibility = 'whole' | 'masked' | 'none';

/** Org creators and super admins manage integrations (Authentication rule 6, NocoDB's ACL). */
export function isOrgCreator(principal: Principal): boolean {
  return isSuper(principal) || principal.roles.includes('org-level-creator');
}

/** 403 unless the caller may manage and list integrations. */
export function assertMayManage(principal: Principal): void {
  if (!isOrgCreator(principal)) {
    throw errors.forbidden(`Forbidden - role '${principal.roles.join(',') || 'none'}' may not manage integrations (org-level-creator or above)`);
  }
}

/** Private integrations exist for their creator alone. */
export function canSee(row: IntegrationRow, principal: Principal): boolean {
  return !row.is_private || row.created_by === principal.id;
}

/** Creator: whole; other org admins (creator or above): masked; anyone else: none. */
export function configVisibility(row: IntegrationRow, principal: Principal): ConfigVisibility {
  if (row.created_by === principal.id) return 'whole';
  return isOrgCreator(principal) ? 'masked' : 'none';
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

/** Only the creator edits a private integration; public ones any org creator. */
export function assertMayEdit(row: IntegrationRow, principal: Principal): void {
  assertMayManage(principal);
  if (row.is_private && row.created_by !== principal.id) throw errors.forbidden('Forbidden - a private integration can only be changed by its creator');
}
