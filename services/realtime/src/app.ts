import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { RealtimePorts } from './ports';
import { streamScopes } from './domain/stream-scope';
import { eventsRouter } from './routes/events.routes';

export type { RealtimePorts } from './ports';

/** Builds the realtime service app; never listens, reads no environment. */
export function createApp(ports: RealtimePorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, streamScopes(ports));
  return standardServiceApp(ports, { routers: [eventsRouter(ports, authorizer)] });
}
