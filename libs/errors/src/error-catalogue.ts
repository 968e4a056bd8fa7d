import { AppError } from './app-error';

/**
 * The error codes of Tabula with their HTTP status, checked by the compiler:
 * `appError('ERR_TABLE_NOT_FOUND', msg)` cannot answer another status than
 * the catalogue's, and `errors.notFound` only takes a 404 code. A new code is
 * added here first (compat-notes "Error bodies").
 */
export const ERROR_CATALOGUE = {
  // 400: the request cannot be served as sent
  ERR_INVALID_REQUEST_BODY: 400,
  ERR_INVALID_JSON: 400,
  ERR_INVALID_PATH: 400,
  ERR_INVALID_VALUE_FOR_FIELD: 400,
  ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION: 400,
  ERR_CONSTRAINT_VIOLATION: 400,
  ERR_INVALID_FORMULA: 400,
  ERR_INVALID_ATTACHMENT: 400,
  ERR_TABLE_WITHOUT_PRIMARY_KEY: 400,
  ERR_NOT_LINKED: 400,
  ERR_WEBHOOK_ERROR: 400,
  ERR_INTEGRATION_DISABLED: 400,
  ERR_URL_NOT_ALLOWED: 400,
  ERR_INVALID_DATA_URL: 400,
  ERR_UPLOAD_URL_FAILED: 400,
  ERR_TOO_MANY_REDIRECTS: 400,
  ERR_UPLOAD_ABORTED: 400,
  ERR_TOO_MANY_FILES: 400,
  // 401 / 403: who is asking
  ERR_AUTHENTICATION_REQUIRED: 401,
  ERR_API_TOKEN_NOT_ALLOWED: 401,
  ERR_FORBIDDEN: 403,
  ERR_INVALID_SIGNATURE: 403,
  // 404: missing, or another tenant's (answered alike)
  ERR_NOT_FOUND: 404,
  ERR_BASE_NOT_FOUND: 404,
  ERR_SOURCE_NOT_FOUND: 404,
  ERR_TABLE_NOT_FOUND: 404,
  ERR_FIELD_NOT_FOUND: 404,
  ERR_COLUMN_NOT_FOUND: 404,
  ERR_INDEX_NOT_FOUND: 404,
  ERR_VIEW_NOT_FOUND: 404,
  ERR_SORT_NOT_FOUND: 404,
  ERR_FILTER_NOT_FOUND: 404,
  ERR_RECORD_NOT_FOUND: 404,
  ERR_USER_NOT_FOUND: 404,
  ERR_MEMBER_NOT_FOUND: 404,
  ERR_TOKEN_NOT_FOUND: 404,
  ERR_HOOK_NOT_FOUND: 404,
  ERR_COMMENT_NOT_FOUND: 404,
  ERR_FILE_NOT_FOUND: 404,
  ERR_INTEGRATION_NOT_FOUND: 404,
  ERR_INTEGRATION_TYPE_NOT_FOUND: 404,
  ERR_INTEGRATION_ENDPOINT_NOT_FOUND: 404,
  ERR_STORE_RECORD_NOT_FOUND: 404,
  ERR_METHOD_NOT_ALLOWED: 405,
  // 409 / 410 / 413 / 415 / 416 / 422 / 429
  ERR_BASE_AMBIGUOUS: 409,
  ERR_INDEX_EXISTS: 409,
  ERR_INDEX_NOT_UNIQUE: 409,
  ERR_TABLE_AMBIGUOUS: 409,
  ERR_STALE_COLUMNS_HASH: 409,
  ERR_LINK_EXPIRED: 410,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_RANGE_NOT_SATISFIABLE: 416,
  ERR_INVALID_SORT: 422,
  ERR_INVALID_PK_VALUE: 422,
  ERR_DUPLICATE_IN_ALIAS: 422,
  ERR_MAX_PAYLOAD_LIMIT_EXCEEDED: 422,
  ERR_REQUIRED_FIELD_MISSING: 422,
  ERR_UPGRADE_REQUIRED: 426,
  ERR_TOO_MANY_REQUESTS: 429,
  // 5xx: our side or a neighbour's
  ERR_INTERNAL_SERVER: 500,
  ERR_BAD_GATEWAY: 502,
  ERR_BAD_UPSTREAM_RESPONSE: 502,
  ERR_SOURCE_UNAVAILABLE: 502,
  ERR_INTEGRATION_CONNECTION: 502,
  ERR_INTEGRATION_UPSTREAM: 502,
  ERR_SERVICE_UNAVAILABLE: 503,
  ERR_GATEWAY_TIMEOUT: 504,
  ERR_INTEGRATION_TIMEOUT: 504,
} as const satisfies Record<string, number>;

/** A code of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes of the catalogue answered with `status`. */
export type CodeWithStatus<S extends number> = { [K in ErrorCode]: (typeof ERROR_CATALOGUE)[K] extends S ? K : never }[ErrorCode];

/** An AppError whose status is the catalogue's for its code. */
export function appError(code: ErrorCode, message: string, details?: unknown): AppError {
  return new AppError(ERROR_CATALOGUE[code], code, message, details);
}

/**
 * The one exception to "a code has one status", declared here: NocoDB 0.301.3's v3
 * paths answer a base, table, field or view that does not exist (or is hidden) with 422
 * and the same code as v1's 404.
 */
export const V3_MISSING_STATUS = 422;

/** A v3 path's missing base, table or field (422, the v1 code). */
export function v3Missing(code: 'ERR_BASE_NOT_FOUND' | 'ERR_TABLE_NOT_FOUND' | 'ERR_FIELD_NOT_FOUND' | 'ERR_VIEW_NOT_FOUND', message: string, details?: unknown, headers?: Record<string, string>): AppError {
  return new AppError(V3_MISSING_STATUS, code, message, details, headers);
}

/** Factories for the statuses and codes listed in compat-notes ("Error bodies"); codes are checked against the catalogue. */
export const errors = {
  badRequest: (message: string, details?: unknown) => appError('ERR_INVALID_REQUEST_BODY', message, details),
  invalidJson: () => appError('ERR_INVALID_JSON', 'Invalid JSON in request body'),
  unauthorized: (message = 'Authentication required - Invalid token') => appError('ERR_AUTHENTICATION_REQUIRED', message),
  apiTokenNotAllowed: () => appError('ERR_API_TOKEN_NOT_ALLOWED', 'API token not allowed on this endpoint'),
  forbidden: (message = 'Forbidden - Unauthorized access') => appError('ERR_FORBIDDEN', message),
  notFound: (code: CodeWithStatus<404>, message: string) => appError(code, message),
  conflict: (code: CodeWithStatus<409>, message: string, details?: unknown) => appError(code, message, details),
  unprocessable: (code: CodeWithStatus<422>, message: string, details?: unknown) => appError(code, message, details),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(ERROR_CATALOGUE.ERR_TOO_MANY_REQUESTS, 'ERR_TOO_MANY_REQUESTS', 'Too many requests, try again later', undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  unavailable: (message: string) => appError('ERR_SERVICE_UNAVAILABLE', message),
  internal: () => appError('ERR_INTERNAL_SERVER', 'Internal server error'),
};
