import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { HooksPorts } from './ports';
import { hookScopes } from './domain/hook-access';
import { hooksRouter } from './routes/hooks.routes';
import { hookExtrasRouter } from './routes/hook-extras.routes';
import { internalRouter } from './routes/internal.routes';

/** Builds the hooks service app. */
export function createApp(ports: HooksPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, hookScopes(ports));
  return standardServiceApp(ports, { routers: [hooksRouter(ports, authorizer), hookExtrasRouter(ports, authorizer), internalRouter(ports)] });
}
