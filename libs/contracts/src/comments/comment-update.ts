import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { commentExample, commentSchema, commentText, idText } from './comment.schema';
import { USERS } from '../endpoint/access';

const example = { request: { comment: 'Looks better' }, response: { ...commentExample, comment: 'Looks better', is_edited: true } };

/** `PATCH /api/v1/db/meta/comment/{commentId}`: the author replaces the text (sets is_edited). */
export const commentUpdate = defineEndpoint({
  id: 'commentUpdate', method: 'PATCH', path: '/api/v1/db/meta/comment/{commentId}', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'comment', id: (i) => i.params.commentId } },
  summary: 'Edit a comment', tags: ['Comments'], description: 'Only the author edits; no history is kept.',
  params: z.object({ commentId: idText }),
  body: z.object({ comment: commentText, fk_model_id: idText.optional().describe('When given, must be the comment\'s table') }),
  response: commentSchema, errors: [403, 404], example,
});

/** `PATCH /api/v2/comments/{commentId}` */
export const commentUpdateV2 = defineEndpoint({
  id: 'commentUpdateV2', method: 'PATCH', path: '/api/v2/comments/{commentId}', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'comment', id: (i) => i.params.commentId } },
  summary: 'Edit a comment (v2)', tags: ['Comments'],
  params: z.object({ commentId: idText }), body: z.object({ comment: commentText }),
  response: commentSchema, errors: [403, 404], example,
});
