import { z } from 'zod';

/** An id of a stored row (auth). */
export const idRef = z.string().min(1).max(64);

/** An id or name in a path (meta). */
export const nameRef = z.string().min(1).max(255);

/** An id or reference in a path (hooks). */
export const hookRef = z.string().min(1).max(128);

/** `{ msg }` answer of actions without a resource to return. */
export const msgSchema = z.object({ msg: z.string() });

/** An object whose shape is open (NocoDB answers with more fields than listed). */
export const openObject = z.looseObject({});

/** A timestamp: a Date in the handler, an ISO string on the wire. */
export const timestamp = z.custom<string | Date>((v) => typeof v === 'string' || v instanceof Date)
  .meta({ type: 'string', format: 'date-time' });
