import type { Attachment } from '@tabula/contracts';
import { AppError, appError } from '@tabula/http';
import type { ObjectRow } from '../repositories/object.repository';
import { decodeDataUrl, fetchFailed, fetchUrl } from './fetch-url';
import { discardObjects, storeObject, type IncomingFile, type StoreTarget } from './store-object';
import type { StoragePorts } from '../ports';

/** One item of the upload-by-url body. */
export interface UrlItem {
  url: string;
  fileName?: string;
  mimetype?: string;
}

async function openItem(ports: StoragePorts, item: UrlItem, signal: AbortSignal): Promise<IncomingFile> {
  const limit = ports.config.SVC_ATTACHMENT_FIELD_SIZE;
  if (/^data:/i.test(item.url)) return decodeDataUrl(item.url, limit);
  if (!/^https?:/i.test(item.url)) throw appError('ERR_URL_NOT_ALLOWED', 'Only http, https and data: URLs can be uploaded');
  return fetchUrl(ports.fetcher, item.url, limit, signal);
}

/**
 * Stores a fetched file. The source failing mid-body (reset, timeout) is a
 * fetch failure like any other; the blob store failing stays what it is.
 */
async function storeFetched(ports: StoragePorts, file: IncomingFile, target: StoreTarget) {
  let sourceError: unknown;
  file.body.once('error', (err) => { sourceError ??= err; });
  try {
    return await storeObject(ports, file, target);
  } catch (err) {
    if (sourceError !== undefined && !(err instanceof AppError)) throw fetchFailed(sourceError);
    throw err;
  }
}

/** Logs what a generic fetch failure hides from the caller (which host, and what happened). */
function logFetchFailure(ports: StoragePorts, err: unknown, url: string): void {
  if (!(err instanceof AppError) || err.code !== 'ERR_UPLOAD_URL_FAILED') return;
  let host = '';
  try { host = new URL(url).host; } catch { /* a data: URL or worse: no host to name */ }
  ports.logger.warn({ err: (err as { cause?: unknown }).cause, host }, 'upload by URL: fetch failed');
}

/**
 * POST /upload-by-url: fetches each URL (in order) and streams it into the
 * blob store; a failing item fails the request and nothing is kept. Network
 * failures of every kind answer one message (fetchFailed); the detail is
 * only logged.
 */
export async function uploadByUrl(ports: StoragePorts, items: UrlItem[], target: StoreTarget): Promise<Attachment[]> {
  const stored: ObjectRow[] = [];
  const out: Attachment[] = [];
  let current = '';
  try {
    for (const item of items) {
      current = item.url;
      const signal = AbortSignal.timeout(ports.config.SVC_UPLOAD_BY_URL_TIMEOUT_MS);
      const file = await openItem(ports, item, signal);
      const named = { ...file, fileName: item.fileName ?? file.fileName, mimetype: item.mimetype ?? file.mimetype };
      const result = await storeFetched(ports, named, target);
      stored.push(result.row);
      out.push(result.attachment);
    }
  } catch (err) {
    logFetchFailure(ports, err, current);
    await discardObjects(ports, stored);
    throw err;
  }
  return out;
}
