import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { PUBLIC, USERS } from '../endpoint/access';

const fileBody = z.unknown();

/**
 * GET /download/{path}: a stored file by its key. Anyone may call it; the
 * object decides (its read rule, in storage): a public-scope file is served
 * to all, a private one to readers of a base it belongs to, or its uploader
 * while it belongs to none; anyone else gets the answer of a missing file.
 */
export const storageDownload = defineEndpoint({
  id: 'storageDownload',
  method: 'GET',
  path: '/download/{path}',
  service: 'storage',
  auth: { callers: PUBLIC },
  summary: 'Download a stored file (Range supported)',
  tags: ['Storage'],
  params: z.object({ path: z.string().min(1).max(2048) }),
  response: fileBody,
  errors: [206, 403, 404, 416],
});

/** GET /dltemp/{token}: a file through an HMAC-signed, expiring link (the signature is the grant). */
export const storageSignedDownload = defineEndpoint({
  id: 'storageSignedDownload',
  method: 'GET',
  path: '/dltemp/{token}',
  service: 'storage',
  auth: { callers: PUBLIC },
  summary: 'Download through a signed temporary link',
  tags: ['Storage'],
  params: z.object({ token: z.string().min(1).max(4096) }),
  response: fileBody,
  errors: [206, 403, 404, 410, 416],
});

/** GET /api/v2/downloadAttachment/{modelId}/{columnId}/{rowId}?urlOrPath=: a record's attachment, for callers who may read the row. */
export const storageDownloadAttachment = defineEndpoint({
  id: 'storageDownloadAttachment',
  method: 'GET',
  path: '/api/v2/downloadAttachment/{modelId}/{columnId}/{rowId}',
  service: 'storage',
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'table', id: (i) => i.params.modelId } },
  summary: 'Download an attachment of a record',
  tags: ['Storage'],
  params: z.object({ modelId: z.string().min(1).max(64), columnId: z.string().min(1).max(64), rowId: z.string().min(1).max(512) }),
  query: z.object({ urlOrPath: z.string().min(1).max(4096) }),
  response: fileBody,
  errors: [206, 403, 404, 416],
});
