import { backendUrl, describeWithBackend } from '@tabula/testing';
import { RedisEventBus } from '../src';
import { eventBusContract } from './event-bus.contract';

describeWithBackend('redis', 'EventBus contract: Redis Streams', () => {
  eventBusContract(() => new RedisEventBus({ url: backendUrl('redis') as string, clientId: 'contract', blockMs: 100 }, { info: () => undefined, warn: () => undefined, error: () => undefined }));
});
