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
