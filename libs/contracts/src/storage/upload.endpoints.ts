import { z } from 'zod';
import { aliasOf, defineEndpoint } from '../endpoint/define-endpoint';
import { attachmentSchema, uploadTargetQuery } from './attachment.schema';
import { USERS } from '../endpoint/access';

/**
 * POST /api/v1/db/storage/upload: multipart, parts `file` or `files[]`,
 * streamed to the blob store. Names no base (`path` only organizes keys):
 * the file is its uploader's until a record of a base holds it (a
 * base-scoped token's upload is its base's at once).
 */
export const storageUpload = defineEndpoint({
  id: 'storageUpload',
  method: 'POST',
  path: '/api/v1/db/storage/upload',
  service: 'storage',
  auth: { callers: USERS },
  summary: 'Upload files (multipart; at most 10 files, SVC_ATTACHMENT_FIELD_SIZE bytes each)',
  tags: ['Storage'],
  query: uploadTargetQuery,
  bodyContentType: 'multipart/form-data',
  response: z.array(attachmentSchema),
  errors: [413],
});

/** One file to fetch: an http(s) or data: URL. */
export const uploadByUrlItem = z.object({
  url: z.string().min(1).max(30 * 1024 * 1024),
  fileName: z.string().max(1000).optional(),
  mimetype: z.string().max(255).optional(),
});

/** POST /api/v1/db/storage/upload-by-url: `[{url, fileName?, mimetype?}]`, fetched behind the SSRF guard. */
export const storageUploadByUrl = defineEndpoint({
  id: 'storageUploadByUrl',
  method: 'POST',
  path: '/api/v1/db/storage/upload-by-url',
  service: 'storage',
  auth: { callers: USERS },
  summary: 'Upload files by URL (http, https, data:)',
  tags: ['Storage'],
  query: uploadTargetQuery,
  body: z.array(uploadByUrlItem).min(1).max(10),
  response: z.array(attachmentSchema),
  errors: [413],
});

/** Per-base storage usage (metadata recorded by storage). */
export const storageUsageSchema = z.object({
  baseId: z.string(),
  files: z.number().int(),
  bytes: z.number().int(),
});

/** GET /api/v1/db/storage/usage/{baseId}: files and bytes stored for a base (base owners, creators). */
export const storageBaseUsage = defineEndpoint({
  id: 'storageBaseUsage',
  method: 'GET',
  path: '/api/v1/db/storage/usage/{baseId}',
  service: 'storage',
  auth: { callers: USERS, permission: 'base.update', scope: { via: 'base', id: (i) => i.params.baseId } },
  summary: 'Storage used by a base',
  tags: ['Storage'],
  params: z.object({ baseId: z.string().min(1).max(64) }),
  response: storageUsageSchema,
  errors: [403, 404],
});

/**
 * `POST /api/v2/storage/upload`: NocoDB 0.301.3 serves it from the v1
 * upload's handler; so does Tabula (an alias: same multipart parts, query and
 * answer). NocoDB's clients may add `base_id` to the query: NocoDB reads no
 * such parameter, and neither does Tabula (the file joins a base when a record
 * of that base first holds it).
 */
export const storageUploadV2 = aliasOf(storageUpload, { id: 'storageUploadV2', path: '/api/v2/storage/upload', summary: `${storageUpload.summary} (v2)` });

/** `POST /api/v2/storage/upload-by-url`: the v1 upload by URL under NocoDB's v2 path (an alias). */
export const storageUploadByUrlV2 = aliasOf(storageUploadByUrl, {
  id: 'storageUploadByUrlV2', path: '/api/v2/storage/upload-by-url', summary: `${storageUploadByUrl.summary} (v2)`,
});
