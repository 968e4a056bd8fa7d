import { backendUrl, describeWithBackend } from '@tabula/testing';
import { KafkaEventBus } from '../src';
import { eventBusContract } from './event-bus.contract';

describeWithBackend('kafka', 'EventBus contract: Kafka', () => {
  eventBusContract(() => new KafkaEventBus((backendUrl('kafka') as string).split(','), 'contract', { info: () => undefined, warn: () => undefined, error: () => undefined }));
});
