import { errors } from '@tabula/http';
import type { Principal } from './principal';
import type { BaseAccess } from './base-access';

/** The live bases a base reference (`{baseName}` of a route) could mean. */
export interface BaseCandidates {
  /** The base whose id is the reference, when there is one. */
  byId?: string;
  /** Ids of the live bases whose title is the reference (any tenant), oldest first. */
  byTitle: string[];
}

/**
 * Picks the base a reference means for this caller. An id is taken as is (the
 * role check that follows answers for it). A title is resolved only among the
 * bases the caller may access: none → 404 (the same answer as a base that does
 * not exist, so titles of other tenants' bases stay unknown); several → 409
 * naming their ids; one → that base.
 */
export async function resolveBaseRef(access: BaseAccess, principal: Principal, ref: string, candidates: BaseCandidates): Promise<string> {
  if (candidates.byId) return candidates.byId;
  const roles = await Promise.all(candidates.byTitle.map((id) => access.roleOf(principal, id)));
  const mine = candidates.byTitle.filter((_, i) => roles[i] !== undefined && roles[i] !== 'no-access');
  if (mine.length === 0) throw errors.notFound('ERR_BASE_NOT_FOUND', `Base '${ref}' not found`);
  if (mine.length > 1) {
    throw errors.conflict('ERR_BASE_AMBIGUOUS', `Base title '${ref}' matches several of your bases (${mine.join(', ')}); use the base id`, { ids: mine });
  }
  return mine[0];
}
