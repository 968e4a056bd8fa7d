import { AppError, appError } from '@tabula/errors';

interface DriverError {
  code?: string;
  severity?: string;
  errno?: number;
  constraint?: string;
  column?: string;
  detail?: string;
  table?: string;
}

/** SQLSTATE / driver code → status and error code. Mapped by code, never by message. */
const PG: Record<string, [number, string, string]> = {
  '23505': [400, 'ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION', 'Unique constraint violation'],
  '23502': [422, 'ERR_REQUIRED_FIELD_MISSING', 'A required field is missing'],
  '23503': [400, 'ERR_FOREIGN_KEY_VIOLATION', 'Referenced record does not exist'],
  '23514': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Value violates a check constraint'],
  '22P02': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid value for the field type'],
  '22003': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Numeric value out of range'],
  '22001': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Value too long for the field'],
  '22007': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid date or time value'],
  '22008': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Date or time value out of range'],
  '22023': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid parameter value'],
  '2201B': [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid regular expression'],
  '40001': [409, 'ERR_CONFLICT', 'Concurrent update, retry the request'],
  '40P01': [409, 'ERR_CONFLICT', 'Concurrent update, retry the request'],
  '57014': [503, 'ERR_QUERY_TIMEOUT', 'The query took too long'],
  '53300': [503, 'ERR_SERVICE_UNAVAILABLE', 'Too many database connections'],
};

const MYSQL: Record<number, [number, string, string]> = {
  1062: [400, 'ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION', 'Unique constraint violation'],
  1048: [422, 'ERR_REQUIRED_FIELD_MISSING', 'A required field is missing'],
  1364: [422, 'ERR_REQUIRED_FIELD_MISSING', 'A required field is missing'],
  1366: [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid value for the field type'],
  1264: [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Numeric value out of range'],
  1406: [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Value too long for the field'],
  1292: [400, 'ERR_INVALID_VALUE_FOR_FIELD', 'Invalid date or time value'],
  1452: [400, 'ERR_FOREIGN_KEY_VIOLATION', 'Referenced record does not exist'],
  1213: [409, 'ERR_CONFLICT', 'Concurrent update, retry the request'],
};

/** Maps PostgreSQL, MySQL/MariaDB and SQLite driver errors to AppError (for the error middleware). */
export function mapDbError(err: unknown): AppError | undefined {
  const e = err as DriverError;
  if (!e || typeof e !== 'object') return undefined;
  if (typeof e.code === 'string' && PG[e.code] && /^[0-9A-Z]{5}$/.test(e.code)) {
    const [status, code, message] = PG[e.code];
    return new AppError(status, code, message, e.column ? { column: e.column } : undefined);
  }
  if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) {
    // Every other SQLSTATE of class 22 (data exception: 22021 bad byte sequence, 22P05 untranslatable character…) is bad input.
    const where = e.column ? ` in field '${e.column}'` : '';
    return appError('ERR_INVALID_VALUE_FOR_FIELD', `Invalid value${where} (SQLSTATE ${e.code})`, e.column ? { column: e.column } : undefined);
  }
  if (typeof e.errno === 'number' && MYSQL[e.errno] && typeof e.code === 'string' && e.code.startsWith('ER_')) {
    const [status, code, message] = MYSQL[e.errno];
    return new AppError(status, code, message);
  }
  if (e.code === 'SQLITE_CONSTRAINT') return appError('ERR_CONSTRAINT_VIOLATION', 'Constraint violation');
  if (e.code === 'SQLITE_MISMATCH') return appError('ERR_INVALID_VALUE_FOR_FIELD', 'Invalid value for the field type');
  return undefined;
}

/** True when the error is a unique violation on any supported dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as DriverError;
  return e?.code === '23505' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT';
}

/**
 * True when PostgreSQL answered the statement with an error (a SQLSTATE of
 * severity `ERROR`): the statement was rolled back and nothing of it
 * committed, so running its work again cannot write it twice. False for
 * anything else (`FATAL`, a connection lost while waiting for the answer),
 * where the statement may have committed.
 */
export function isRefusedStatement(err: unknown): boolean {
  const e = err as DriverError;
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && e.severity === 'ERROR';
}
