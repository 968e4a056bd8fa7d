import type { AccessScope } from '@tabula/http';
import type { ScopeResolvers } from '@tabula/auth';
import type { IntegrationsPorts } from '../ports';
import { findIntegration, type IntegrationRow } from '../repositories/integration.repository';
import { canSee, integrationNotFound } from './integration-access';

/** An integration the guard authorized: the caller may manage integrations and sees this one. */
export type IntegrationInScope = AccessScope<IntegrationRow>;

/**
 * What the integrations contracts are scoped by: one integration, missing
 * when it does not exist or is private to another user (its existence is not
 * revealed). The guard then checks `integration.manage`, answering a caller
 * without it with the same 404.
 */
export function integrationScopes(ports: IntegrationsPorts): ScopeResolvers {
  return {
    integration: {
      missing: (id) => integrationNotFound(String(id)),
      resolve: async (principal, id) => {
        const row = await findIntegration(ports.db, String(id));
        if (!row || !canSee(row, principal)) throw integrationNotFound(String(id));
        return { ownerId: row.created_by, value: row };
      },
    },
  };
}
