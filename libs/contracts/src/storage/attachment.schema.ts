import { z } from 'zod';

/**
 * The Attachment object (spec "Attachment object"): local storage answers
 * `path` + `signedPath`, external object storage `url` + `signedUrl`.
 */
export const attachmentSchema = z.object({
  /** `download/<key>` of a locally stored file. */
  path: z.string().optional(),
  /** Full URL of a file in external object storage. */
  url: z.string().optional(),
  /** File name as uploaded (kept as given, sanitized only on disk). */
  title: z.string(),
  mimetype: z.string(),
  size: z.number().int().min(0),
  /** `dltemp/<token>`: a signed, expiring link (local storage). */
  signedPath: z.string().optional(),
  /** Absolute signed, expiring link (external storage). */
  signedUrl: z.string().optional(),
  /** Icon hint for clients (`mdi-file-pdf-box`, ...) where the type has one. */
  icon: z.string().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** Where an upload goes: an organizing path and the scope (`public` or private). */
export const uploadTargetQuery = z.object({
  /** Organizing path (`noco/base/table/column`); sanitized, never traverses. */
  path: z.string().max(512).optional(),
  /** `public`: served without a signature; anything else: private. */
  scope: z.string().max(32).optional(),
});

/** A reference to a stored attachment, as a record cell holds it. */
export const attachmentRefSchema = z.object({ path: z.string().optional(), url: z.string().optional() });
export type AttachmentRef = z.infer<typeof attachmentRefSchema>;
