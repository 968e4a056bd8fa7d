import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError, appError, errors } from '@tabula/http';
import type { Attachment } from '@tabula/contracts';
import type { ObjectRow } from '../repositories/object.repository';
import { discardObjects, storeObject, type StoreTarget } from './store-object';
import type { StoragePorts } from '../ports';

/** Files per request (compat-notes "Attachments"). */
export const MAX_FILES = 10;
const FILE_FIELDS = new Set(['file', 'files', 'files[]', 'file[]']);

interface Parse {
  stored: ObjectRow[];
  attachments: Attachment[];
  pending: Promise<void>[];
  failure?: unknown;
  /** Settles at the first failure: the answer need not wait for the rest of the body. */
  failed: Promise<void>;
  onFailure: () => void;
}

function parser(req: IncomingMessage): busboy.Busboy {
  try {
    return busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: MAX_FILES, fields: 20, fieldSize: 4096, parts: MAX_FILES + 20 } });
  } catch {
    throw errors.badRequest('Expected a multipart/form-data body with a file part');
  }
}

function fail(state: Parse, err: unknown): void {
  state.failure ??= err;
  state.onFailure();
}

type FileStream = NodeJS.ReadableStream & { destroy(err?: Error): void };

/**
 * Resolves when the multipart body is done: parsed to the end, malformed, or
 * cut off by the client. In the last two cases busboy never ends the open file
 * parts, so they are failed here (their puts then remove what they wrote).
 */
function endOf(req: IncomingMessage, bb: busboy.Busboy, state: Parse, open: Set<FileStream>): Promise<void> {
  return new Promise<void>((resolve) => {
    const abort = (err: AppError) => {
      fail(state, err);
      for (const stream of open) stream.destroy(err);
      resolve();
    };
    bb.once('close', resolve);
    bb.once('error', (err) => abort(errors.badRequest(`Malformed multipart body: ${(err as Error).message}`)));
    req.once('close', () => { if (!req.complete) abort(appError('ERR_UPLOAD_ABORTED', 'Upload aborted by the client')); });
  });
}

/**
 * POST /upload: parses the multipart stream with busboy and streams each
 * file part straight into the blob store, in order. Any failure (an
 * oversized file, an 11th file, a broken stream) stores nothing: files
 * already stored by the request are removed before the error is answered,
 * which happens without waiting for the rest of the body.
 */
export async function uploadFiles(ports: StoragePorts, req: IncomingMessage, target: StoreTarget): Promise<Attachment[]> {
  const bb = parser(req);
  let onFailure = (): void => undefined;
  const failed = new Promise<void>((resolve) => { onFailure = resolve; });
  const state: Parse = { stored: [], attachments: [], pending: [], failed, onFailure: () => onFailure() };
  let chain = Promise.resolve();
  const open = new Set<FileStream>();
  bb.on('file', (field, stream, info) => {
    if (!FILE_FIELDS.has(field) || state.failure) { stream.resume(); return; }
    open.add(stream);
    stream.once('close', () => open.delete(stream));
    const index = state.pending.length;
    const job = chain.then(async () => {
      if (state.failure) { stream.resume(); return; }
      const out = await storeObject(ports, { body: stream, fileName: info.filename, mimetype: info.mimeType }, target);
      state.stored.push(out.row);
      state.attachments[index] = out.attachment;
    }).catch((err: unknown) => { stream.resume(); fail(state, err); });
    chain = job;
    state.pending.push(job);
  });
  bb.on('filesLimit', () => fail(state, appError('ERR_TOO_MANY_FILES', `At most ${MAX_FILES} files per upload`)));
  const finished = endOf(req, bb, state, open);
  req.pipe(bb);
  // a refused request (a file over the limit, an 11th file) is answered at once: the rest of its
  // body is still read (and dropped) by busboy, so the client gets its 413 while it is sending
  await Promise.race([finished, state.failed]);
  // files whose parts already began finish (or fail) first, so that none is stored after the discard
  await Promise.all(state.pending);
  if (!state.failure && state.pending.length === 0) fail(state, errors.badRequest("No file part: send parts named 'file' or 'files[]'"));
  if (state.failure) {
    await discardObjects(ports, state.stored);
    throw state.failure;
  }
  return state.attachments;
}
