import { ACCOUNT, type EndpointAuth } from '../endpoint/access';

/**
 * Integrations belong to the workspace, not to a base: org creators and super
 * admins manage them (`integration.manage`), by session or org-wide API token.
 * A base-scoped token is refused (403): it reaches its own base, never the
 * workspace's credentials.
 */
export const manageIntegrations = { callers: ACCOUNT, permission: 'integration.manage' } as const satisfies EndpointAuth;

/**
 * The same rule on one integration (`{integrationId}` in the path): a caller
 * refused (base-scoped token, no org role) gets the answer of a missing id,
 * and a private integration of another user is missing to everyone but its
 * creator (the `integration` scope resolver).
 */
export const manageIntegration = {
  ...manageIntegrations,
  scope: { via: 'integration', id: (input: { params: { integrationId: string } }) => input.params.integrationId },
} as const satisfies EndpointAuth;
