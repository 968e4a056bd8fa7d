import type { Attachment } from '@tabula/contracts';
import { appError } from '@tabula/http';
import type { ObjectRow } from '../repositories/object.repository';
import { decodeDataUrl, fetchUrl } from './fetch-url';
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
 * POST /upload-by-url: fetches each URL (in order) and streams it into the
 * blob store; a failing item fails the request and nothing is kept.
 */
export async function uploadByUrl(ports: StoragePorts, items: UrlItem[], target: StoreTarget): Promise<Attachment[]> {
  const stored: ObjectRow[] = [];
  const out: Attachment[] = [];
  try {
    for (const item of items) {
      const signal = AbortSignal.timeout(ports.config.SVC_UPLOAD_BY_URL_TIMEOUT_MS);
      const file = await openItem(ports, item, signal);
      const named = { ...file, fileName: item.fileName ?? file.fileName, mimetype: item.mimetype ?? file.mimetype };
      const result = await storeObject(ports, named, target).catch((err: unknown) => {
        if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') {
          throw appError('ERR_UPLOAD_URL_TIMEOUT', 'Fetching the URL timed out');
        }
        throw err;
      });
      stored.push(result.row);
      out.push(result.attachment);
    }
  } catch (err) {
    await discardObjects(ports, stored);
    throw err;
  }
  return out;
}
