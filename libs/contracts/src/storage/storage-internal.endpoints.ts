import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { attachmentRefSchema } from './attachment.schema';
import { metaInternal } from '../meta/internal';
import { SERVICES } from '../endpoint/access';

/**
 * POST /internal/attachments/claim: data asks, before writing an Attachment
 * cell, which of the values storage did not issue (their indexes); the known
 * ones are recorded as used by the base/table/column (for GC and usage).
 */
export const storageAttachmentsClaim = defineEndpoint({
  id: 'storageAttachmentsClaim',
  method: 'POST',
  path: '/internal/attachments/claim',
  service: 'storage',
  auth: { callers: SERVICES },
  summary: 'Check attachments are issued by storage and record their use',
  tags: ['Storage internal'],
  body: z.object({
    baseId: z.string(),
    tableId: z.string(),
    columnId: z.string(),
    items: z.array(attachmentRefSchema).max(10_000),
  }),
  response: z.object({ unknown: z.array(z.number().int()) }),
});

/** A fresh signed link for one attachment (null when storage does not know it). */
export const signedLinkSchema = z.object({ signedPath: z.string().optional(), signedUrl: z.string().optional() }).nullable();

/** POST /internal/attachments/sign: fresh signed links for a page of attachments, in one call. */
export const storageAttachmentsSign = defineEndpoint({
  id: 'storageAttachmentsSign',
  method: 'POST',
  path: '/internal/attachments/sign',
  service: 'storage',
  auth: { callers: SERVICES },
  summary: 'Signed links for attachments (one batch per page)',
  tags: ['Storage internal'],
  body: z.object({ items: z.array(attachmentRefSchema).max(50_000) }),
  response: z.object({ links: z.array(signedLinkSchema) }),
});

/** The storage service's internal API, called by data. */
export const storageInternalEndpoints = { storageAttachmentsClaim, storageAttachmentsSign };

/**
 * POST /internal/attachment-refs (data service): which of `values` (attachment
 * paths or urls) the column still holds, in one row or in any row. Storage's
 * garbage collector and downloadAttachment ask it.
 */
export const dataAttachmentRefs = defineEndpoint({
  id: 'dataAttachmentRefs',
  method: 'POST',
  path: '/internal/attachment-refs',
  service: 'data',
  auth: { callers: SERVICES },
  summary: 'Attachment values a column (or one row of it) still references',
  tags: ['Data internal'],
  body: z.object({
    tableId: z.string(),
    columnId: z.string(),
    rowId: z.string().optional(),
    values: z.array(z.string()).min(1).max(1000),
  }),
  response: z.object({ referenced: z.array(z.string()) }),
  errors: [404],
});

/** The data service's internal attachment API, called by storage. */
export const dataAttachmentEndpoints = { dataAttachmentRefs };

/** What storage (and data's attachment checks) call on meta: a table's context by id, the one contract of `GET /internal/tables/{tableId}`. */
export const storageMetaEndpoints = { tableContext: metaInternal.tableContext };
