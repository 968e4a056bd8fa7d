import type { Context, Middleware } from 'koa';
import { AppError, errors } from './app-error';

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

async function readBody(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new AppError(413, 'ERR_PAYLOAD_TOO_LARGE', `Request body larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError(413, 'ERR_PAYLOAD_TOO_LARGE', `Request body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
