import { defineService, observeOutbox, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { authConfigSchema, type AuthConfig } from './config';
import { createApp } from './app';
import type { AuthPorts } from './ports';
import { migrations } from '../migrations';
import { MemoryRateLimiter, type RateLimiter } from './adapters/rate-limiter';
import { RedisRateLimiter, rateKeyPrefix } from './adapters/redis-rate-limiter';
import { baseDeletedConsumer} from './consumers/base-deleted.consumer';
import { OutboxMailer, SmtpMailer, type Mailer } from './adapters/mailer';
import { AUTH_SCHEMA } from './repositories/schema';
import { BackgroundTasks } from './adapters/background-tasks';

async function buildPorts(common: CommonPorts, config: AuthConfig): Promise<AuthPorts> {
  const { platform } = common;
  // Counters must be shared by replicas in cluster mode, hence Redis whenever it is configured.
  const rateLimiter: RateLimiter = platform.REDIS_URL
    ? await RedisRateLimiter.connect(platform.REDIS_URL, rateKeyPrefix(platform.EVENT_TOPIC_PREFIX, config.SVC_AUTH_RATE_KEY_PREFIX))
    : new MemoryRateLimiter();
  const mailer: Mailer = config.SVC_SMTP_URL
    ? new SmtpMailer(config.SVC_SMTP_URL, config.SVC_SMTP_FROM)
    : new OutboxMailer(common.db, common.logger);
  const relay = new OutboxRelay({ knex: common.db, schema: AUTH_SCHEMA, bus: common.bus, logger: common.logger });
  observeOutbox(common.metrics, relay);
  return { ...common, config, rateLimiter, mailer, relay, tasks: new BackgroundTasks(common.logger) };
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
    ports.relay.start();
    const baseDeleted = await baseDeletedConsumer.start(ports);
    return [
      // Stopped in reverse order: the consumer first, then the relay (its last flush), then the connections buildPorts opened.
      { stop: async () => { await ports.tasks.drain(); await ports.rateLimiter.close(); await ports.mailer.close(); } },
      { stop: () => ports.relay.stop() },
      baseDeleted,
    ];
  },
});
