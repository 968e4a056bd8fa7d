import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { AuthConfig } from './config';
import type { RateLimiter } from './adapters/rate-limiter';
import type { Mailer } from './adapters/mailer';
import type { BackgroundTasks } from './adapters/background-tasks';
import { accountRouter } from './routes/account.routes';
import { passwordRouter } from './routes/password.routes';
import { apiTokenRouter } from './routes/api-token.routes';
import { baseMemberRouter } from './routes/base-member.routes';
import { internalRouter } from './routes/internal.routes';

/** The auth endpoints exist under both prefixes (issue 3). */
const API_VERSIONS = ['v1', 'v2'] as const;

/** What the auth service is handed at start-up. */
export interface AuthPorts extends CommonPorts {
  config: AuthConfig;
  rateLimiter: RateLimiter;
  mailer: Mailer;
  /** Publishes `auth.outbox` (the events of auth's committed changes). */
  relay: OutboxRelay;
  /** Work answered before it is done (reset mails). */
  tasks: BackgroundTasks;
}

/** Builds the auth service app; never listens, reads no environment. */
export function createApp(ports: AuthPorts): Koa {
  return standardServiceApp(ports, {
    routers: [
      ...API_VERSIONS.flatMap((v) => [accountRouter(ports, v), passwordRouter(ports, v)]),
      apiTokenRouter(ports), baseMemberRouter(ports), internalRouter(ports),
    ],
  });
}
