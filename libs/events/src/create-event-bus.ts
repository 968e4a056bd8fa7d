import type { EventBus, EventBusConfig } from './event-bus';
import { MemoryEventBus } from './memory/memory-event-bus';
import { RedisEventBus } from './redis/redis-event-bus';
import { KafkaEventBus } from './kafka/kafka-event-bus';

/** Builds the bus for the configured backend. Connections open lazily. */
export function createEventBus(config: EventBusConfig): EventBus {
  switch (config.kind) {
    case 'memory':
      return new MemoryEventBus(config);
    case 'redis':
      if (!config.redisUrl) throw new Error('createEventBus: redisUrl is required for kind "redis"');
      return new RedisEventBus({ ...config, redisUrl: config.redisUrl });
    case 'kafka':
      if (!config.kafkaBrokers?.length) throw new Error('createEventBus: kafkaBrokers is required for kind "kafka"');
      return new KafkaEventBus({ ...config, kafkaBrokers: config.kafkaBrokers });
    default:
      throw new Error(`createEventBus: unknown kind ${String((config as { kind: unknown }).kind)}`);
  }
}
