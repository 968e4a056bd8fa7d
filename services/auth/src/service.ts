import { defineService, type CommonPorts } from '@tabula/runtime';
import { authConfigSchema, type AuthConfig } from './config';
import { createApp } from './app';
import type { AuthPorts } from './ports';
import { migrations } from '../migrations';
import { MemoryRateLimiter, type RateLimiter } from './adapters/rate-limiter';
import { RedisRateLimiter } from './adapters/redis-rate-limiter';
import { consumeBaseDeleted } from './events/base-deleted.consumer';
import { OutboxMailer, SmtpMailer, type Mailer } from './adapters/mailer';

async function buildPorts(common: CommonPorts, config: AuthConfig): Promise<AuthPorts> {
  const { platform } = common;
  // Counters must be shared by replicas in cluster mode, hence Redis whenever it is configured.
  const rateLimiter: RateLimiter = platform.REDIS_URL ? await RedisRateLimiter.connect(platform.REDIS_URL, config.SVC_AUTH_RATE_KEY_PREFIX) : new MemoryRateLimiter();
  const mailer: Mailer = config.SVC_SMTP_URL
    ? new SmtpMailer(config.SVC_SMTP_URL, config.SVC_SMTP_FROM)
    : new OutboxMailer(common.db, common.logger, platform.TABULA_MODE === 'standalone');
  return { ...common, config, rateLimiter, mailer };
}

/** The auth service (ARCHITECTURE.md "Services"). */
export const authService = defineService<AuthConfig, AuthPorts>({
  name: 'auth',
  schema: 'auth',
  migrations,
  configSchema: authConfigSchema,
  buildPorts,
  createApp,
  start: async (ports) => {
    const baseDeleted = await consumeBaseDeleted(ports);
    return [
      // Stopped in reverse order: the consumer first, then the connections buildPorts opened.
      { stop: async () => { await ports.rateLimiter.close(); await ports.mailer.close(); } },
      { stop: () => baseDeleted.close() },
    ];
  },
});
