import { createEventBus } from '@tabula/events';
import { eventBusContract } from './event-bus.contract';

describe('EventBus contract: memory', () => {
  eventBusContract((logger) => createEventBus({ kind: 'memory', clientId: 'contract', logger, retry: { initialMs: 20, maxMs: 200 } }));
});
