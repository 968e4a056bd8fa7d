import type { CommonPorts } from '@tabula/runtime';
import type { AuthConfig } from './config';
import type { RateLimiter } from './adapters/rate-limiter';
import type { Mailer } from './adapters/mailer';
import type { OutboxRelay } from '@tabula/events';
import type { BackgroundTasks } from './adapters/background-tasks';

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
