import type { EventBus, EventBusConfig } from './event-bus';
import { MemoryEventBus } from './memory/memory-event-bus';
import { NamespacedEventBus } from './namespaced-event-bus';
/**
 * Builds the bus for the configured backend. Connections open lazily, and the
 * Redis and Kafka clients are loaded only by the process that uses them.
 */
export function createEventBus(config: EventBusConfig): EventBus {
  const bus = createAdapter(config);
  return config.namespace ? new NamespacedEventBus(bus, { ...config.namespace, logger: config.logger }) : bus;
}

function createAdapter(config: EventBusConfig): EventBus {
  switch (config.kind) {
    case 'memory':
      return new MemoryEventBus(config);
    case 'redis':
      if (!config.redisUrl) throw new Error('createEventBus: redisUrl is required for kind "redis"');
      {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { RedisEventBus } = require('./redis/redis-event-bus') as typeof import('./redis/redis-event-bus');
        return new RedisEventBus({ ...config, redisUrl: config.redisUrl });
      }
    case 'kafka':
      if (!config.kafkaBrokers?.length) throw new Error('createEventBus: kafkaBrokers is required for kind "kafka"');
      {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { KafkaEventBus } = require('./kafka/kafka-event-bus') as typeof import('./kafka/kafka-event-bus');
        return new KafkaEventBus({ ...config, kafkaBrokers: config.kafkaBrokers });
      }
    default:
      throw new Error(`createEventBus: unknown kind ${String((config as { kind: unknown }).kind)}`);
  }
}
