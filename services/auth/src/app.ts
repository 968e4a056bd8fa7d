import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { AuthPorts } from './ports';
import { accountRouter } from './routes/account.routes';
import { passwordRouter } from './routes/password.routes';
import { apiTokenRouter } from './routes/api-token.routes';
import { baseMemberRouter } from './routes/base-member.routes';
import { internalRouter } from './routes/internal.routes';
import { authScopes } from './domain/auth-access';

/** The auth endpoints exist under both prefixes (issue 3). */
const API_VERSIONS = ['v1', 'v2'] as const;

/** Builds the auth service app; never listens, reads no environment. */
export function createApp(ports: AuthPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, authScopes(ports));
  return standardServiceApp(ports, {
    routers: [
      ...API_VERSIONS.flatMap((v) => [accountRouter(ports, v), passwordRouter(ports, v)]),
      apiTokenRouter(ports, authorizer), baseMemberRouter(ports, authorizer), internalRouter(ports),
    ],
  });
}
