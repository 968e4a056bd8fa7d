import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { idText, successSchema } from './comment.schema';
import { USERS } from '../endpoint/access';

const description = 'Soft delete: hidden from lists and counts, kept stored, never restored. The author, or a base owner, creator or super admin.';

/** `DELETE /api/v1/db/meta/comment/{commentId}` */
export const commentDelete = defineEndpoint({
  id: 'commentDelete', method: 'DELETE', path: '/api/v1/db/meta/comment/{commentId}', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'comment', id: (i) => i.params.commentId } },
  summary: 'Delete a comment', tags: ['Comments'], description,
  params: z.object({ commentId: idText }), response: successSchema, errors: [403, 404], example: { response: { success: true } },
});

/** `DELETE /api/v2/comments/{commentId}` */
export const commentDeleteV2 = defineEndpoint({
  id: 'commentDeleteV2', method: 'DELETE', path: '/api/v2/comments/{commentId}', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'comment', id: (i) => i.params.commentId } },
  summary: 'Delete a comment (v2)', tags: ['Comments'], description,
  params: z.object({ commentId: idText }), response: successSchema, errors: [403, 404], example: { response: { success: true } },
});
