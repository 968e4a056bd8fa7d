import { AppError } from './app-error';

/**
 * The error codes of Tabula with their HTTP status, checked by the compiler:
 * `appError('ERR_TABLE_NOT_FOUND', msg)` cannot answer another status than
 * the catalogue's. New codes are added here (compat-notes "Error bodies").
 */
export const ERROR_CATALOGUE = {
  ERR_INVALID_REQUEST_BODY: 400,
  ERR_INVALID_JSON: 400,
  ERR_AUTHENTICATION_REQUIRED: 401,
  ERR_API_TOKEN_NOT_ALLOWED: 401,
  ERR_FORBIDDEN: 403,
  ERR_NOT_FOUND: 404,
  ERR_BASE_NOT_FOUND: 404,
  ERR_TABLE_NOT_FOUND: 404,
  ERR_FIELD_NOT_FOUND: 404,
  ERR_VIEW_NOT_FOUND: 404,
  ERR_RECORD_NOT_FOUND: 404,
  ERR_USER_NOT_FOUND: 404,
  ERR_MEMBER_NOT_FOUND: 404,
  ERR_HOOK_NOT_FOUND: 404,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_INTERNAL_SERVER: 500,
  ERR_BAD_UPSTREAM_RESPONSE: 502,
  ERR_SOURCE_UNAVAILABLE: 502,
  ERR_SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

/** A code of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** An AppError whose status is the catalogue's for its code. */
export function appError(code: ErrorCode, message: string, details?: unknown): AppError {
  return new AppError(ERROR_CATALOGUE[code], code, message, details);
}
