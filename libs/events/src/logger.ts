import type { EventLogger } from './bus-options';

/**
 * Used when the caller passes no logger: failures still reach stderr (a failed
 * handler must never go unnoticed), routine information is dropped.
 */
export const fallbackLogger: EventLogger = {
  info: () => undefined,
  warn: (obj, msg) => console.warn(`[@tabula/events] ${msg ?? ''}`, obj),
  error: (obj, msg) => console.error(`[@tabula/events] ${msg ?? ''}`, obj),
};
