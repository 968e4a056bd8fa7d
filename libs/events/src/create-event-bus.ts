import type { BusLogger, EventBus } from './event-bus';
import { silentLogger } from './event-bus';
import { MemoryEventBus } from './memory-bus';
import { RedisEventBus } from './redis-bus';
import { KafkaEventBus } from './kafka-bus';

export interface EventBusConfig {
  kind: 'memory' | 'redis' | 'kafka';
  redisUrl?: string;
  kafkaBrokers?: string[];
  clientId: string;
  logger?: BusLogger;
}

/** Picks the adapter named by EVENT_BUS. */
export function createEventBus(config: EventBusConfig): EventBus {
  const logger = config.logger ?? silentLogger;
  if (config.kind === 'redis') {
    if (!config.redisUrl) throw new Error('EVENT_BUS=redis needs REDIS_URL');
    return new RedisEventBus({ url: config.redisUrl, clientId: config.clientId }, logger);
  }
  if (config.kind === 'kafka') {
    if (!config.kafkaBrokers?.length) throw new Error('EVENT_BUS=kafka needs KAFKA_BROKERS');
    return new KafkaEventBus(config.kafkaBrokers, config.clientId, logger);
  }
  return new MemoryEventBus(logger);
}
