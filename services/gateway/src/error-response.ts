import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorBody, type AppError } from '@tabula/http';

/**
 * Answers an error the gateway writes itself (outside the Koa app's error
 * middleware): the JSON error body every client parses, the status it names,
 * the error's own headers and any `extra` ones. A response that already
 * started cannot change its status: it is cut instead.
 */
export function sendError(res: ServerResponse, error: AppError, extra: OutgoingHttpHeaders = {}): void {
  if (res.headersSent) { res.destroy(); return; }
  const body = JSON.stringify(errorBody(error));
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}
