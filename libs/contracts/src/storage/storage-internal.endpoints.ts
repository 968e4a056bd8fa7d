import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { attachmentRefSchema } from './attachment.schema';
import { metaInternal } from '../meta/internal';
import { SERVICES } from '../endpoint/access';

/** One attachment data is about to write, with the Attachment column it goes to. */
export const claimItemSchema = attachmentRefSchema.extend({ columnId: z.string() });

/**
 * POST /internal/attachments/claim: data asks, before writing Attachment
 * cells, which values may not enter the base (their indexes). An object may
 * when it already belongs to the base, or when the writing user uploaded it
 * and it belongs to no base yet (it then joins this one). Anything else is
 * refused alike: an unknown value, another base's object, another user's
 * fresh upload. All or nothing: a refused item records nothing; otherwise
 * every item is recorded as used by its column (for GC and usage).
 */
export const storageAttachmentsClaim = defineEndpoint({
  id: 'storageAttachmentsClaim',
  method: 'POST',
  path: '/internal/attachments/claim',
  service: 'storage',
  auth: { callers: SERVICES },
  summary: 'Check attachments may enter a base and record their use',
  tags: ['Storage internal'],
  body: z.object({
    baseId: z.string(),
    tableId: z.string(),
    /** The user writing the record (absent when a service writes): only an uploader brings a fresh upload in. */
    userId: z.string().optional(),
    items: z.array(claimItemSchema).max(50_000),
  }),
  response: z.object({ refused: z.array(z.number().int()) }),
});

/** A fresh signed link for one attachment (null when it is not an object of the base). */
export const signedLinkSchema = z.object({ signedPath: z.string().optional(), signedUrl: z.string().optional() }).nullable();

/**
 * POST /internal/attachments/sign: fresh signed links for a page of
 * attachments of one base, in one call; an object of another base (or of
 * none) gets no link, whatever a record holds.
 */
export const storageAttachmentsSign = defineEndpoint({
  id: 'storageAttachmentsSign',
  method: 'POST',
  path: '/internal/attachments/sign',
  service: 'storage',
  auth: { callers: SERVICES },
  summary: 'Signed links for attachments of a base (one batch per page)',
  tags: ['Storage internal'],
  body: z.object({ baseId: z.string(), items: z.array(attachmentRefSchema).max(50_000) }),
  response: z.object({ links: z.array(signedLinkSchema) }),
});

/** The storage service's internal API, called by data. */
export const storageInternalEndpoints = { storageAttachmentsClaim, storageAttachmentsSign };

/** One copied table: its id, its copy's id and its columns' ids (source → copy). */
export const copiedTableSchema = z.object({
  from: z.string().min(1).max(64),
  to: z.string().min(1).max(64),
  /** Source column id → the copy's column id (columns not listed were not copied). */
  columns: z.record(z.string().max(64), z.string().max(64)),
});

/**
 * POST /internal/attachments/share: meta, after copying a base's rows into a
 * new base (duplicate with data), makes every object of the source base an
 * object of the copy too (the copy's cells hold the same files: they get
 * links, downloads and claims there), and records the copy's columns as uses
 * of what the source's columns used, so the garbage collector keeps a file
 * while either base still holds it. Idempotent.
 */
export const storageAttachmentsShare = defineEndpoint({
  id: 'storageAttachmentsShare',
  method: 'POST',
  path: '/internal/attachments/share',
  service: 'storage',
  auth: { callers: SERVICES },
  summary: "Share a base's attachments with its copy",
  tags: ['Storage internal'],
  body: z.object({
    fromBaseId: z.string().min(1).max(64),
    toBaseId: z.string().min(1).max(64),
    tables: z.array(copiedTableSchema).max(10_000),
  }),
  response: z.object({ shared: z.number().int() }),
});

/** What meta calls on storage: sharing a duplicated base's attachments with the copy. */
export const storageShareEndpoints = { storageAttachmentsShare };

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
