import { z } from 'zod';

/** Settings of the comments service (docs/configuration.md). */
export const commentsConfigSchema = z.object({
  /** How long "this record exists" is remembered (only positive answers are cached). */
  SVC_COMMENTS_RECORD_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5000),
  /** Safety net of the table cache (dropped on meta events anyway). */
  SVC_COMMENTS_TABLE_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30000),
});

export type CommentsConfig = z.infer<typeof commentsConfigSchema>;
