import type { Middleware } from 'koa';
import { z } from 'zod';

/** Schemas for the parts of a request a route accepts. */
export interface RequestSchemas {
  body?: z.ZodTypeAny;
  query?: z.ZodTypeAny;
  params?: z.ZodTypeAny;
}

/** The parsed input `validate` leaves on `ctx.state.input`. */
export interface ValidatedInput<S extends RequestSchemas> {
  body: S['body'] extends z.ZodTypeAny ? z.infer<S['body']> : undefined;
  query: S['query'] extends z.ZodTypeAny ? z.infer<S['query']> : undefined;
  params: S['params'] extends z.ZodTypeAny ? z.infer<S['params']> : undefined;
}

/**
 * Parses body, query and params with zod and puts the result on
 * `ctx.state.input`; a failure throws a ZodError that the error middleware
 * turns into 400 ERR_INVALID_REQUEST_BODY naming the field.
 */
export function validate<S extends RequestSchemas>(schemas: S): Middleware {
  return async (ctx, next) => {
    const params = (ctx as unknown as { params?: Record<string, string> }).params ?? {};
    ctx.state.input = {
      body: schemas.body ? schemas.body.parse(ctx.request.body ?? {}) : undefined,
      query: schemas.query ? schemas.query.parse(ctx.query) : undefined,
      params: schemas.params ? schemas.params.parse(params) : undefined,
    };
    await next();
  };
}

/** Reads what `validate` parsed, typed by the same schemas. */
export function inputOf<S extends RequestSchemas>(ctx: { state: Record<string, unknown> }, _schemas: S): ValidatedInput<S> {
  return ctx.state.input as ValidatedInput<S>;
}
