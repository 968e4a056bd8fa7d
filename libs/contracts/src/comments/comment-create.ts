import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { commentExample, commentSchema, commentText, idText } from './comment.schema';
import { USERS } from '../endpoint/access';

const example = { request: { fk_model_id: 'm0a1b2c3d4e5f6g', row_id: '1', comment: 'Looks good' }, response: commentExample };

/** `POST /api/v1/db/meta/comments`: comments a record (commenter and up); a reply names its parent. */
export const commentCreate = defineEndpoint({
  id: 'commentCreate', method: 'POST', path: '/api/v1/db/meta/comments', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'table', id: (i) => i.body.fk_model_id } },
  summary: 'Comment a record', tags: ['Comments'],
  description: 'The record must exist; a parent must be a live comment of the same record.',
  body: z.object({
    fk_model_id: idText.describe('Table id'),
    row_id: z.union([idText, z.number().int()]).transform(String).describe('Record id'),
    comment: commentText,
    parent_comment_id: idText.nullish().describe('Comment replied to'),
  }),
  response: commentSchema, errors: [403, 404], example,
});

/** `POST /api/v2/tables/{tableId}/records/{recordId}/comments` */
export const commentCreateV2 = defineEndpoint({
  id: 'commentCreateV2', method: 'POST', path: '/api/v2/tables/{tableId}/records/{recordId}/comments', service: 'comments', auth: { callers: USERS, permission: 'comment.write', scope: { via: 'table', id: (i) => i.params.tableId } },
  summary: 'Comment a record (v2)', tags: ['Comments'],
  params: z.object({ tableId: idText, recordId: idText }),
  body: z.object({ comment: commentText, parent_comment_id: idText.nullish().describe('Comment replied to') }),
  response: commentSchema, errors: [403, 404], example: { request: { comment: 'Looks good' }, response: commentExample },
});
