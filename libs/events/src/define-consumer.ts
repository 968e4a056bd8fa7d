import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { EventBus, EventMessage, SubscribeOptions } from './event-bus';

/**
 * Who receives the events: `shared` — one named group whose members (the
 * service's replicas) share the work, and events published while the service
 * is down wait for it; `per-process` — every process gets every event (cache
 * invalidation), in a unique, ephemeral group starting at the latest event.
 */
export type ConsumerDelivery = { kind: 'shared'; group: string } | { kind: 'per-process'; prefix: string };

/** A consumer as a service declares it. */
export interface ConsumerDefinition<P> {
  /** For logs and tests: `<service>.<thing>`. */
  name: string;
  topics: string[];
  delivery: ConsumerDelivery;
  /** Handles one message (idempotently: delivery is at least once); unknown types are ignored. */
  handle(ports: P, message: EventMessage): Promise<void>;
  /**
   * Optional batch form of `handle` (SubscribeOptions.handleBatch): the
   * messages of one key that queued up while that key's previous batch ran
   * (every bus; in order; acknowledged together, redelivered together when it
   * throws). A message that arrives alone still goes to `handle`.
   */
  handleBatch?(ports: P, messages: EventMessage[]): Promise<void>;
  /** Largest batch given to `handleBatch` (the bus's default: 64). */
  maxBatch?: number;
  /** Messages accepted at once, running or queued behind their key (the bus's default when absent). */
  maxInFlight?: number;
  /** false: one key's messages may run concurrently, for order-independent consumers (default true). */
  ordered?: boolean;
  /** Delay accepted for fewer, larger reads (SubscribeOptions.lingerMs); for consumers no user waits on. */
  lingerMs?: number;
}

/** A running consumer: stop closes its subscription (and, per process, deletes its group). */
export interface RunningConsumer {
  stop(): Promise<void>;
}

/** A declared consumer: its handler (tests call it directly) and how to start it on a service's ports. */
export interface Consumer<P> extends ConsumerDefinition<P> {
  start(ports: P): Promise<RunningConsumer>;
}

/** A consumer group unique to this process (per-process delivery). */
export function perProcessGroup(prefix: string): string {
  return `${prefix}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/** The subscription options of a definition's batching and ordering settings (only those it sets). */
function batchOptions<P>(definition: ConsumerDefinition<P>, ports: P): Partial<SubscribeOptions> {
  const { handleBatch, maxBatch, maxInFlight, ordered, lingerMs } = definition;
  return {
    ...(handleBatch ? { handleBatch: (messages: EventMessage[]) => handleBatch.call(definition, ports, messages) } : {}),
    ...(maxBatch !== undefined ? { maxBatch } : {}),
    ...(maxInFlight !== undefined ? { maxInFlight } : {}),
    ...(ordered !== undefined ? { ordered } : {}),
    ...(lingerMs !== undefined ? { lingerMs } : {}),
  };
}

/**
 * The one way a service consumes events: the file `src/consumers/<thing>.consumer.ts`
 * exports `defineConsumer({ name, topics, delivery, handle })` (plus
 * `handleBatch`, `maxBatch`, `maxInFlight`, `ordered` when it consumes in
 * batches, `lingerMs` when it can wait for fuller reads), and the service's `start` calls `consumer.start(ports)`.
 */
export function defineConsumer<P extends { bus: EventBus }>(definition: ConsumerDefinition<P>): Consumer<P> {
  return {
    ...definition,
    async start(ports: P): Promise<RunningConsumer> {
      const { delivery } = definition;
      const subscription = await ports.bus.subscribe({
        topics: definition.topics,
        handler: (message) => definition.handle(ports, message),
        ...batchOptions(definition, ports),
        ...(delivery.kind === 'shared'
          ? { group: delivery.group }
          : { group: perProcessGroup(delivery.prefix), fromBeginning: false, ephemeral: true }),
      });
      return { stop: () => subscription.close() };
    },
  };
}
