import { z } from 'zod';

/** Longest comment text (spec "Limits"). */
export const COMMENT_MAX_LENGTH = 3000;

/** Comment text: 1–3000 characters, plain text, stored verbatim (never trimmed or rendered). */
export const commentText = z.string().min(1, 'comment must not be empty').max(COMMENT_MAX_LENGTH, `comment must be at most ${COMMENT_MAX_LENGTH} characters`)
  .refine((s) => !s.includes('\u0000'), 'comment must not contain NUL characters')
  .describe('Plain text, 1 to 3000 characters, stored and returned byte-for-byte');

/** An id in a path or body (table, record, comment). */
export const idText = z.string().min(1).max(255).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

/** An example Comment (OpenAPI). */
export const commentExample = {
  id: 'com0a1b2c3d4e5f6g', fk_model_id: 'm0a1b2c3d4e5f6g', row_id: '1', comment: 'Looks good', parent_comment_id: null,
  source_id: 'b0a1b2c3d4e5f6g', fk_workspace_id: null, base_id: 'p0a1b2c3d4e5f6g', created_by: 'us0a1b2c3d4e5f6g',
  created_by_email: 'ann@example.com', resolved_by: null, resolved_by_email: null, is_deleted: false, is_edited: false,
  created_at: '2026-01-01T10:00:00.000Z', updated_at: '2026-01-01T10:00:00.000Z',
};

/** The Comment resource (spec "Comment"). */
export const commentSchema = z.object({
  id: z.string().describe('Comment id (`com` + 14 characters)'),
  fk_model_id: z.string().describe('Table id'),
  row_id: z.string().describe('Record id (primary key; composite keys joined with ___)'),
  comment: z.string().describe('The text, exactly as written'),
  parent_comment_id: z.string().nullable().describe('Set on replies; null on top-level comments'),
  source_id: z.string().describe('Data source of the table'),
  fk_workspace_id: z.string().nullable().describe('Workspace of the base'),
  base_id: z.string().describe('Base id'),
  created_by: z.string().describe('User id of the author'),
  created_by_email: z.string().describe("Author's e-mail, stored with the comment"),
  resolved_by: z.string().nullable().describe('User id of the resolver; null when unresolved'),
  resolved_by_email: z.string().nullable().describe("Resolver's e-mail"),
  is_deleted: z.boolean().describe('Soft-delete flag (deleted comments are never listed)'),
  is_edited: z.boolean().describe('True once the text was changed'),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
}).meta({ example: commentExample });


export type CommentShape = z.infer<typeof commentSchema>;

/** `{ success: true }` of a delete (compat-notes: the spec wins over NocoDB's bare `true`). */
export const successSchema = z.object({ success: z.boolean() });
