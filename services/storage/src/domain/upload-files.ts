import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError, errors } from '@tabula/http';
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
}

/**
 * POST /upload: parses the multipart stream with busboy and streams each
 * file part straight into the blob store, in order. Any failure (an
 * oversized file, an 11th file, a broken stream) stores nothing: files
 * already stored by the request are removed before the error is answered.
 */
export async function uploadFiles(ports: StoragePorts, req: IncomingMessage, target: StoreTarget): Promise<Attachment[]> {
  const bb = parser(req);
  const state: Parse = { stored: [], attachments: [], pending: [] };
  let chain = Promise.resolve();
  const open = new Set<NodeJS.ReadableStream & { destroy(err?: Error): void }>();
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
  bb.on('filesLimit', () => fail(state, new AppError(400, 'ERR_TOO_MANY_FILES', `At most ${MAX_FILES} files per upload`)));
  const finished = new Promise<void>((resolve) => {
    bb.once('close', resolve);
    bb.once('error', (err) => { fail(state, errors.badRequest(`Malformed multipart body: ${(err as Error).message}`)); resolve(); });
    // a client gone mid-file: busboy never ends that part, so the file streams are failed here (their puts clean up)
    req.once('close', () => {
      if (req.complete) return;
      const aborted = new AppError(400, 'ERR_UPLOAD_ABORTED', 'Upload aborted by the client');
      fail(state, aborted);
      for (const stream of open) stream.destroy(aborted);
      resolve();
    });
  });
  req.pipe(bb);
  await finished;
  await Promise.all(state.pending);
  if (!state.failure && state.pending.length === 0) fail(state, errors.badRequest("No file part: send parts named 'file' or 'files[]'"));
  if (state.failure) {
    await discardObjects(ports, state.stored);
    throw state.failure;
  }
  return state.attachments;
}
