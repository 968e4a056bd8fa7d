import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { AppError, appError, urlRefusal } from '@tabula/http';
import { tooLarge, type IncomingFile } from './store-object';

/** Redirect hops followed for one URL; each hop is checked again. */
export const MAX_REDIRECTS = 3;

const notAllowed = (message: string) => appError('ERR_URL_NOT_ALLOWED', message);

/**
 * The one answer for every failure to get a URL's bytes (refused, reset,
 * timed out, unresolvable, TLS, a non-2xx status): which of them happened
 * would map internal hosts and ports. The detail rides along as `cause`, for
 * the server log only (upload-by-url.ts).
 */
export function fetchFailed(cause: unknown): AppError {
  return Object.assign(appError('ERR_UPLOAD_URL_FAILED', 'Could not fetch the URL'), { cause });
}

/** A `data:` URL decoded in process (size checked before decoding). */
export function decodeDataUrl(raw: string, limit: number): IncomingFile {
  const m = /^data:([^,;]*)((?:;[^,;=]+=[^,;]*)*)(;base64)?,(.*)$/s.exec(raw);
  if (!m) throw appError('ERR_INVALID_DATA_URL', 'Malformed data: URL');
  const payload = m[4];
  const estimated = m[3] ? Math.floor((payload.length * 3) / 4) - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0) : payload.length;
  if (estimated > limit + 3) throw tooLarge(limit);
  const bytes = m[3] ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  if (bytes.length > limit) throw tooLarge(limit);
  return { body: Readable.from([bytes]), mimetype: m[1] || 'text/plain' };
}

function nameFromUrl(url: URL): string | undefined {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return undefined;
  try { return decodeURIComponent(last); } catch { return last; }
}

function refusalOfBlocked(err: unknown): AppError | undefined {
  const e = err as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  const blocked = e.code === 'ERR_TARGET_BLOCKED' ? e : e.cause?.code === 'ERR_TARGET_BLOCKED' ? e.cause : undefined;
  return blocked ? notAllowed(blocked.message ?? 'Target address not allowed') : undefined;
}

async function open(dispatcher: Dispatcher, url: URL, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  try {
    return await request(url, { dispatcher, method: 'GET', signal, headers: { accept: '*/*', 'user-agent': 'Tabula-Storage' } });
  } catch (err) {
    throw refusalOfBlocked(err) ?? fetchFailed(err);
  }
}

/**
 * Opens an http(s) URL through the guarded dispatcher (every resolved
 * address is checked at connect time), following at most
 * {@link MAX_REDIRECTS} redirects, each checked again. A declared
 * Content-Length over the limit is refused before reading; the stream is
 * metered by the caller.
 */
export async function fetchUrl(dispatcher: Dispatcher, raw: string, limit: number, signal: AbortSignal): Promise<IncomingFile> {
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    const refused = urlRefusal(url.href);
    if (refused) throw notAllowed(refused);
    const res = await open(dispatcher, url, signal);
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      res.body.resume();
      if (hop >= MAX_REDIRECTS) throw appError('ERR_TOO_MANY_REDIRECTS', `More than ${MAX_REDIRECTS} redirects`);
      url = new URL(String(res.headers.location), url);
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      res.body.resume();
      throw fetchFailed(new Error(`${url.host} answered ${res.statusCode}`));
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) { res.body.destroy(); throw tooLarge(limit); }
    const type = res.headers['content-type'];
    return { body: res.body, fileName: nameFromUrl(url), mimetype: typeof type === 'string' ? type.split(';')[0] : undefined };
  }
}
