/**
 * The one error type of Tabula: a code, an HTTP status and a message. The error
 * middleware turns it into NocoDB's body `{ error, message, msg, details? }`.
 */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: unknown,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Factories for the statuses and codes listed in compat-notes ("Error bodies"). */
export const errors = {
  badRequest: (message: string, details?: unknown) => new AppError(400, 'ERR_INVALID_REQUEST_BODY', message, details),
  invalidJson: () => new AppError(400, 'ERR_INVALID_JSON', 'Invalid JSON in request body'),
  unauthorized: (message = 'Authentication required - Invalid token') =>
    new AppError(401, 'ERR_AUTHENTICATION_REQUIRED', message),
  apiTokenNotAllowed: () => new AppError(401, 'ERR_API_TOKEN_NOT_ALLOWED', 'API token not allowed on this endpoint'),
  forbidden: (message = 'Forbidden - Unauthorized access') => new AppError(403, 'ERR_FORBIDDEN', message),
  notFound: (code: string, message: string) => new AppError(404, code, message),
  conflict: (code: string, message: string, details?: unknown) => new AppError(409, code, message, details),
  unprocessable: (code: string, message: string, details?: unknown) => new AppError(422, code, message, details),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(429, 'ERR_TOO_MANY_REQUESTS', 'Too many requests, try again later', undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  unavailable: (message: string) => new AppError(503, 'ERR_SERVICE_UNAVAILABLE', message),
  internal: () => new AppError(500, 'ERR_INTERNAL_SERVER', 'Internal server error'),
};

/** The JSON body of an error response. */
export interface ErrorBody {
  error: string;
  message: string;
  msg: string;
  details?: unknown;
}

/** Renders an AppError as the body both kinds of NocoDB clients read. */
export function errorBody(err: AppError): ErrorBody {
  const body: ErrorBody = { error: err.code, message: err.message, msg: err.message };
  if (err.details !== undefined) body.details = err.details;
  return body;
}
