/** Message headers: event metadata and W3C trace context travel here. */
export interface EventHeaders {
  [name: string]: string;
}

/** One message as delivered to a consumer. */
export interface EventMessage {
  id: string;
  topic: string;
  key: string;
  type: string;
  version: number;
  payload: Uint8Array;
  headers: EventHeaders;
  timestamp: string;
}

/** What a producer hands to `publish`. */
export interface PublishInput {
  topic: string;
  key: string;
  type: string;
  version?: number;
  payload: Uint8Array;
  headers?: EventHeaders;
  id?: string;
}

export type EventHandler = (message: EventMessage) => Promise<void>;

export interface Subscription {
  close(): Promise<void>;
  /** Alias of close, so a subscription is a runtime Worker. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Consumer group: each group gets every message once; members share the work. */
  group: string;
  topics: string[];
  handler: EventHandler;
  /** Start from the oldest retained message (default) or only new ones (broadcast groups). */
  fromBeginning?: boolean;
}

/**
 * The event bus port. Delivery is at least once: a handler that throws gets the
 * message again (after a backoff), never silently dropped; order is kept per key
 * within a group.
 */
export interface EventBus {
  /** Resolves once the broker accepted the messages. */
  publish(messages: PublishInput[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Throws when the backend is unreachable (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The logging calls the adapters make. */
export interface BusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: BusLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
