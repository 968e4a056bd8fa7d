import { AppError, appError } from '@tabula/http';

/** 400 ERR_INVALID_VALUE_FOR_FIELD naming the column (and why). */
export function invalidValue(title: string, why: string, details: Record<string, unknown> = {}): AppError {
  return appError('ERR_INVALID_VALUE_FOR_FIELD', `Invalid value for field '${title}': ${why}`, { field: title, ...details });
}

/** 422 ERR_REQUIRED_FIELD_MISSING naming the column. */
export function requiredMissing(title: string): AppError {
  return appError('ERR_REQUIRED_FIELD_MISSING', `Field '${title}' is required`, { field: title });
}

/** 400 refusing a write to a system or auto-maintained column. */
export function systemColumnWrite(title: string): AppError {
  return appError('ERR_INVALID_REQUEST_BODY', `Field '${title}' is a system field and cannot be written`, { field: title });
}

/** 400 ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION naming the field and value. */
export function uniqueViolation(title: string, value: unknown): AppError {
  return appError('ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION', `Unique constraint violation on field '${title}': value '${String(value)}' already exists`, { field: title, value });
}

/** Prefixes a record-level error with its index in a bulk body (nothing is written). */
export function atIndex(err: unknown, index: number): unknown {
  if (!(err instanceof AppError)) return err;
  const details = typeof err.details === 'object' && err.details ? err.details : {};
  return new AppError(err.status, err.code, `Record ${index}: ${err.message}`, { ...details, index });
}
