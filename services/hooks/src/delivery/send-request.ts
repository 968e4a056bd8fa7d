import { request, type Dispatcher } from 'undici';
import type { RenderedRequest } from './render-request';

/** Responses are logged up to this many bytes. */
export const RESPONSE_LOG_LIMIT = 10 * 1024;

/** What one attempt produced. */
export interface AttemptResult {
  ok: boolean;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
  executionTime: number;
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < RESPONSE_LOG_LIMIT) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    // keep draining so the connection can be reused, but stop buffering
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_LOG_LIMIT).toString('utf8');
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** Sends one request through the guarded agent, bounded by `timeoutMs`; never throws. */
export async function sendRequest(agent: Dispatcher, req: RenderedRequest, timeoutMs: number): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await request(req.url, {
      dispatcher: agent, method: req.method as Dispatcher.HttpMethod, headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await readLimited(res.body);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      ok, status: res.statusCode, headers: flatHeaders(res.headers), body, executionTime: Date.now() - started,
      error: ok ? undefined : `HTTP ${res.statusCode}`,
    };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    const message = e.name === 'TimeoutError' || e.name === 'AbortError' ? `Timed out after ${timeoutMs} ms` : (e.cause?.message ?? e.message);
    return { ok: false, error: message, executionTime: Date.now() - started };
  }
}
