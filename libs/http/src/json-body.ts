import type { IncomingMessage } from 'node:http';
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

/** Methods whose bodies are read (as koa-body's `parsedMethods`). */
const READ_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body with no Content-Encoding (or `identity`): its bytes are the text, no inflation needed. */
function isPlain(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  return encoding === undefined || encoding.toLowerCase() === 'identity';
}

/** The request has a body at all (type-is's hasBody: chunked, or a Content-Length). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));
}

/**
 * Reads a plain body as UTF-8 straight from the request stream, counting the
 * bytes actually received: over the limit it stops (listeners off, stream
 * paused, not destroyed, so the 413 still reaches the client). Same result as
 * koa-body's reader for these bodies (a leading byte-order mark dropped, as
 * iconv-lite does there) at a fraction of the cost: no content-type matching,
 * no inflation stream, no decoder, one Buffer per body.
 */
function readPlain(ctx: Context, limit: number): Promise<string> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(ctx, limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(Object.assign(err, { status: 400, expose: false }));
    };
    // Closed before its end: the client went away mid-body.
    const onClose = () => {
      cleanup();
      reject(Object.assign(new Error('request aborted'), { status: 400, expose: false, code: 'ECONNABORTED' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Parses JSON bodies (any content type that is not multipart). The text is
 * read straight from the stream when it is not compressed ({@link readPlain}),
 * else by koa-body, which inflates it ({@link rawText}); parsing is ours so that malformed JSON
 * is a 400 `ERR_INVALID_JSON` and `__proto__`/`constructor`/`prototype` keys
 * are dropped (prototype-pollution guard). A request without a body, or an
 * empty one, leaves `ctx.request.body` undefined. Multipart is left for the
 * route (storage streams it with busboy, its own limits per file and field).
 */
export function jsonBody(options: JsonBodyOptions): Middleware {
  const read = rawText(options.limit);
  const parse: Middleware = async (ctx, next) => {
    const method = ctx.method;
    if (Number(ctx.get('content-length') || 0) > options.limit) throw tooLarge(ctx, options.limit);
    ctx.request.body = undefined;
    let text = '';
    if (!READ_METHODS.has(method) || !hasBody(ctx.req)) {
      // nothing to read (no Content-Length, no Transfer-Encoding), as koa-body
    } else if (isPlain(ctx.req)) {
      text = await readPlain(ctx, options.limit);
    } else {
      // Compressed: koa-body inflates it, limited on the inflated bytes. It reads only a
      // body whose type it recognises: read one with no or a malformed content type as bytes too.
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
      text = typeof raw === 'string' ? raw : '';
    }
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
  // A request that carries no body to parse goes on without an async frame of its own.
  return (ctx, next) => {
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || ctx.is('multipart')) return next();
    return parse(ctx, next);
  };
}
