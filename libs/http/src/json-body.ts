import type { Context, Middleware } from 'koa';
import { AppError, appError, errors } from './app-error';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes. */
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

/**
 * Reads the body, counting the bytes actually received (chunked bodies have
 * no Content-Length). Over the limit it stops reading without destroying the
 * request, so the 413 still reaches the client.
 */
function readBody(ctx: Context, limit: number): Promise<string> {
  if (Number(ctx.get('content-length') || 0) > limit) return Promise.reject(tooLarge(ctx, limit));
  const req = ctx.req;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => { req.off('data', onData); req.off('end', onEnd); req.off('error', onError); };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) { chunks.push(chunk); return; }
      cleanup();
      req.pause();
      reject(tooLarge(ctx, limit));
    };
    const onEnd = () => { cleanup(); resolve(Buffer.concat(chunks).toString('utf8')); };
    const onError = (err: Error) => { cleanup(); reject(err); };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Parses JSON bodies (any content type that is not multipart, since NocoDB
 * clients are loose about it). Malformed JSON is a 400 `ERR_INVALID_JSON`;
 * `__proto__`/`constructor` keys are dropped. Multipart is left for the route.
 */
export function jsonBody(options: JsonBodyOptions): Middleware {
  return async (ctx, next) => {
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || ctx.is('multipart')) return next();
    const text = await readBody(ctx, options.limit);
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
