import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { Authorizer } from '@tabula/http';
import type { RealtimePorts } from './ports';
import { streamScopes } from './domain/stream-scope';
import { eventsRouter } from './routes/events.routes';

export type { RealtimePorts } from './ports';

/** The authorizer of the realtime contracts (streams, tickets, and each WebSocket subscription). */
export function realtimeAuthorizer(ports: RealtimePorts): Authorizer {
  return contractAuthorizer(ports.baseAccess, streamScopes(ports));
}

/** Builds the realtime service app; never listens, reads no environment. */
export function createApp(ports: RealtimePorts): Koa {
  return standardServiceApp(ports, { routers: [eventsRouter(ports, realtimeAuthorizer(ports))] });
}
