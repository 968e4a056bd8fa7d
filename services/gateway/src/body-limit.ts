import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, appError } from '@tabula/http';
import { sendError } from './error-response';

/** The 413 every body limit answers. */
export function payloadTooLarge(limit: number): AppError {
  return appError('ERR_PAYLOAD_TOO_LARGE', `Request body larger than ${limit} bytes`);
}

/**
 * Enforces a body limit on the bytes actually read, whatever `Content-Length`
 * says (chunked bodies have none): a declared length over the limit is refused
 * at once; otherwise every chunk the HTTP parser hands to the request is
 * counted before whoever reads the body (the proxied service, in or out of
 * process) sees it. Over the limit the client gets 413 and the reader an
 * error — never a truncated body that could parse.
 */
export function enforceBodyLimit(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw payloadTooLarge(limit);
  // Chunks that arrived with the headers may already be buffered: they count too.
  let seen = req.readableLength;
  let tripped = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (tripped) return true;
    if (chunk === null) return push(null);
    seen += (chunk as Buffer).length;
    if (seen <= limit) return push(chunk, encoding);
    tripped = true;
    const error = payloadTooLarge(limit);
    if (res.headersSent) {
      req.destroy(error);
    } else {
      res.once('finish', () => req.destroy(error));
      sendError(res, error, { connection: 'close' });
    }
    return true;
  };
}
