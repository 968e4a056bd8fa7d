import type { Context, Middleware, Next } from 'koa';
import { ZodError } from 'zod';
import { AppError, errorBody, errors } from './app-error';

/** Turns a foreign error (database, query parser...) into an AppError, or passes. */
export type ErrorMapper = (err: unknown) => AppError | undefined;

/** The logger calls this middleware needs. */
export interface ErrorLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** Maps zod validation failures to 400 ERR_INVALID_REQUEST_BODY naming the fields. */
export const zodErrorMapper: ErrorMapper = (err) => {
  if (!(err instanceof ZodError)) return undefined;
  const first = err.issues[0];
  const where = first?.path.length ? `${first.path.join('.')}: ` : '';
  return errors.badRequest(`${where}${first?.message ?? 'Invalid request'}`, err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
};

/** Koa's own HTTP errors (e.g. 405 from allowedMethods) keep their status. */
const httpErrorMapper: ErrorMapper = (err) => {
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new AppError(e.status, e.status === 404 ? 'ERR_NOT_FOUND' : 'ERR_BAD_REQUEST', e.message ?? 'Bad request');
  }
  return undefined;
};

/** Resolves any thrown value to the AppError that will be sent. */
export function toAppError(err: unknown, mappers: ErrorMapper[]): AppError {
  if (err instanceof AppError) return err;
  for (const mapper of [zodErrorMapper, ...mappers, httpErrorMapper]) {
    const mapped = mapper(err);
    if (mapped) return mapped;
  }
  return errors.internal();
}

/**
 * The one place errors become responses: status and body always agree; a 500
 * carries a generic text and the details go to the log with the request id.
 */
export function errorMiddleware(logger: ErrorLogger, mappers: ErrorMapper[] = []): Middleware {
  return (ctx, next) => runGuarded(ctx, next, logger, mappers);
}

/** {@link errorMiddleware}'s work, callable inside another middleware (the service app's house middleware). */
const REPORTED = Symbol('reported');

/** Marks an error as already logged by whoever throws it (e.g. once per interval): the request's 5xx is then not logged again. */
export function markReported<E extends Error>(err: E): E {
  (err as unknown as Record<symbol, boolean>)[REPORTED] = true;
  return err;
}

export async function runGuarded(ctx: Context, next: Next, logger: ErrorLogger, mappers: ErrorMapper[]): Promise<void> {
  try {
    await next();
    if (ctx.respond !== false && ctx.status === 404 && ctx.body === undefined) {
      throw errors.notFound('ERR_NOT_FOUND', `Route ${ctx.method} ${ctx.path} not found`);
    }
  } catch (err) {
    const appError = toAppError(err, mappers);
    if (ctx.respond === false || ctx.headerSent) {
      logger.warn({ err, requestId: ctx.state.requestId }, 'error after the response started');
      return;
    }
    if (appError.status >= 500 && !(err as Record<symbol, boolean> | undefined)?.[REPORTED]) logger.error({ err, requestId: ctx.state.requestId }, 'request failed');
    ctx.status = appError.status;
    ctx.body = errorBody(appError);
    for (const [name, value] of Object.entries(appError.headers ?? {})) ctx.set(name, value);
  }
}
