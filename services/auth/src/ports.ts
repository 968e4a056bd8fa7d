import type { CommonPorts } from '@tabula/runtime';
import type { AuthConfig } from './config';
import type { RateLimiter } from './adapters/rate-limiter';
import type { Mailer } from './adapters/mailer';

/** What the auth service is handed at start-up. */
export interface AuthPorts extends CommonPorts {
  config: AuthConfig;
  rateLimiter: RateLimiter;
  mailer: Mailer;
}
