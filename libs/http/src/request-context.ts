import { randomUUID } from 'node:crypto';
import { currentLogFields } from '@tabula/telemetry';

/** What every log line and outgoing call of a request carries. */
export interface RequestContext {
  requestId: string;
}

/** The context of the request being served, if any (kept in the logger's request fields). */
export function currentRequestContext(): RequestContext | undefined {
  const requestId = currentLogFields()?.request_id;
  return requestId === undefined ? undefined : { requestId };
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when well formed, else a fresh one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && VALID_ID.test(incoming) ? incoming : randomUUID();
}
