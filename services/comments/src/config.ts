import { z } from 'zod';

/** Settings of the comments service (README: Environment). */
export const commentsConfigSchema = z.object({});

export type CommentsConfig = z.infer<typeof commentsConfigSchema>;
