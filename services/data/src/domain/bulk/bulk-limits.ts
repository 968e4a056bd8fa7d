import { appError } from '@tabula/http';
import type { DataPorts } from '../../ports';

/** Refuses a bulk body that is not an array, or is over `SVC_BULK_MAX_RECORDS` (422 ERR_MAX_PAYLOAD_LIMIT_EXCEEDED). */
export function checkBulkSize(ports: DataPorts, bodies: unknown): asserts bodies is unknown[] {
  if (!Array.isArray(bodies)) throw appError('ERR_INVALID_REQUEST_BODY', 'A bulk request body must be an array of records');
  const max = ports.config.SVC_BULK_MAX_RECORDS;
  if (bodies.length > max) {
    throw appError('ERR_MAX_PAYLOAD_LIMIT_EXCEEDED', `Maximum ${max} entities are allowed per request`, { max, received: bodies.length });
  }
}

/** Refuses update-all / delete-all without a filter unless the query says `all=true`. */
export function checkWipeGuard(hasFilter: boolean, all: unknown): void {
  if (hasFilter || all === 'true' || all === true) return;
  throw appError('ERR_INVALID_REQUEST_BODY', 'Refusing to change every record: give a where filter, or all=true to really affect the whole table');
}
