import { MemoryEventBus } from '../src';
import { eventBusContract } from './event-bus.contract';

describe('EventBus contract: memory', () => {
  eventBusContract(() => new MemoryEventBus({ info: () => undefined, warn: () => undefined, error: () => undefined }));
});
