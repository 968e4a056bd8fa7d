import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { EventBus, EventMessage } from './event-bus';

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

/**
 * The one way a service consumes events: the file `src/consumers/<thing>.consumer.ts`
 * exports `defineConsumer({ name, topics, delivery, handle })`, and the
 * service's `start` calls `consumer.start(ports)`.
 */
export function defineConsumer<P extends { bus: EventBus }>(definition: ConsumerDefinition<P>): Consumer<P> {
  return {
    ...definition,
    async start(ports: P): Promise<RunningConsumer> {
      const { delivery } = definition;
      const subscription = await ports.bus.subscribe({
        topics: definition.topics,
        handler: (message) => definition.handle(ports, message),
        ...(delivery.kind === 'shared'
          ? { group: delivery.group }
          : { group: perProcessGroup(delivery.prefix), fromBeginning: false, ephemeral: true }),
      });
      return { stop: () => subscription.close() };
    },
  };
}
