import type { Context, Middleware } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { AppError, appError, errors } from './app-error';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes (counted on the bytes actually read: chunked bodies too). */
  limit: number;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Matches any JSON key that could spell a forbidden one (escapes included, so `\\u005f_proto__` is caught). */
const DANGEROUS_KEY = /__proto__|constructor|prototype|\\u/;

/** JSON.parse reviver dropping keys that could reach an object's prototype. */
function safeReviver(key: string, value: unknown): unknown {
  return FORBIDDEN_KEYS.has(key) ? undefined : value;
}

function tooLarge(ctx: Context, limit: number): AppError {
  // The rest of the body stays unread: the connection must not be reused for another request.
  ctx.set('connection', 'close');
  return appError('ERR_PAYLOAD_TOO_LARGE', `Request body larger than ${limit} bytes`);
}

/** The status of an http-errors error thrown by raw-body (koa-body's reader), if any. */
function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Reads the raw text of every non-multipart body with koa-body (co-body /
 * raw-body underneath): any content type, since NocoDB clients are loose
 * about it (`application/x-www-form-urlencoded` or `text/plain` carrying
 * JSON). raw-body counts the bytes it actually receives, so a chunked body
 * (no Content-Length) over the limit is refused too; a declared
 * Content-Length over the limit is refused before reading. Over the limit it
 * stops reading (unpipe + pause, the request is not destroyed) so the 413
 * still reaches the client.
 */
function rawText(limit: number): Middleware {
  return koaBody({
    json: false, urlencoded: false, multipart: false,
    text: true, textTypes: ['*/*'], textLimit: limit, encoding: 'utf-8',
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    patchKoa: true, patchNode: false,
    onError: (err, ctx) => {
      const status = statusOf(err);
      if (status === 413) throw tooLarge(ctx as Context, limit);
      if (status === 415) throw appError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Unsupported content encoding or charset of the request body');
      throw err;
    },
  }) as unknown as Middleware;
}

/**
 * Parses JSON bodies (any content type that is not multipart). The text is
 * read by koa-body ({@link rawText}); parsing is ours so that malformed JSON
 * is a 400 `ERR_INVALID_JSON` and `__proto__`/`constructor`/`prototype` keys
 * are dropped (prototype-pollution guard). A request without a body, or an
 * empty one, leaves `ctx.request.body` undefined. Multipart is left for the
 * route (storage streams it with busboy, its own limits per file and field).
 */
export function jsonBody(options: JsonBodyOptions): Middleware {
  const read = rawText(options.limit);
  return async (ctx, next) => {
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || ctx.is('multipart')) return next();
    if (Number(ctx.get('content-length') || 0) > options.limit) throw tooLarge(ctx, options.limit);
    ctx.request.body = undefined;
    // koa-body reads only a body whose type it recognises: read one with no or a malformed content type as bytes too.
    const declared = ctx.req.headers['content-type'];
    const unrecognised = ctx.is('*/*') === false;
    if (unrecognised) ctx.req.headers['content-type'] = 'application/octet-stream';
    try {
      await read(ctx, async () => undefined);
    } finally {
      if (unrecognised) {
        if (declared === undefined) delete ctx.req.headers['content-type'];
        else ctx.req.headers['content-type'] = declared;
      }
    }
    const raw: unknown = ctx.request.body;
    // No body at all (neither Content-Length nor Transfer-Encoding): koa-body read nothing.
    const text = typeof raw === 'string' ? raw : '';
    // nulGuard walks the parsed body only when the text could hold U+0000 (JSON writes it as an escape).
    ctx.state.rawBodyHasNul = /\\u0000/i.test(text);
    if (text.trim() === '') {
      ctx.request.body = undefined;
    } else {
      try {
        // The reviver costs a call per value: only bodies that name a dangerous key pay it.
        ctx.request.body = DANGEROUS_KEY.test(text) ? JSON.parse(text, safeReviver) : JSON.parse(text);
      } catch {
        throw errors.invalidJson();
      }
    }
    await next();
  };
}
