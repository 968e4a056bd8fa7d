import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { listOf, pagingQuery } from '../common/paging';
import { commentExample, commentSchema, idText } from './comment.schema';
import { USERS } from '../endpoint/access';

const listExample = { response: { list: [commentExample], pageInfo: { totalRows: 1, page: 1, pageSize: 25, isFirstPage: true, isLastPage: true } } };

/** `GET /api/v1/db/meta/comments`: a record's live comments, oldest first, paged. */
export const commentList = defineEndpoint({
  id: 'commentList', method: 'GET', path: '/api/v1/db/meta/comments', service: 'comments', auth: { callers: USERS, permission: 'comment.read', scope: { via: 'table', id: (i) => i.query.fk_model_id } },
  summary: "List a record's comments", tags: ['Comments'],
  description: 'Deleted comments are left out; ordered by created_at ascending. Viewer and up.',
  query: pagingQuery.extend({ fk_model_id: idText.describe('Table id'), row_id: idText.describe('Record id') }),
  response: listOf(commentSchema), errors: [403, 404], example: listExample,
});

/** `GET /api/v2/tables/{tableId}/records/{recordId}/comments`: the same list on the v2 path. */
export const commentListV2 = defineEndpoint({
  id: 'commentListV2', method: 'GET', path: '/api/v2/tables/{tableId}/records/{recordId}/comments', service: 'comments', auth: { callers: USERS, permission: 'comment.read', scope: { via: 'table', id: (i) => i.params.tableId } },
  summary: "List a record's comments (v2)", tags: ['Comments'],
  params: z.object({ tableId: idText, recordId: idText }), query: pagingQuery,
  response: listOf(commentSchema), errors: [403, 404], example: listExample,
});
