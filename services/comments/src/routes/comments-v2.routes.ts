import Router from '@koa/router';
import { commentsEndpoints as c } from '@tabula/contracts';
import { requireUser, principalOf } from '@tabula/auth';
import { route } from '@tabula/http';
import type { CommentsPorts } from '../ports';
import { createComment } from '../domain/comments/create-comment';
import { listComments } from '../domain/comments/list-comments';
import { deleteComment, editComment, resolveComment } from '../domain/comments/change-comment';

/** The v2 comment paths (`/api/v2/tables/{tableId}/records/{recordId}/comments`, `/api/v2/comments/{id}`). */
export function commentsV2Router(ports: CommentsPorts): Router {
  const router = new Router();
  const user = requireUser({ allowApiToken: true });
  route(router, c.commentListV2, user, (ctx) =>
    listComments(ports, principalOf(ctx), { tableId: ctx.input.params.tableId, rowId: ctx.input.params.recordId }, ctx.input.query));
  route(router, c.commentCreateV2, user, (ctx) => createComment(ports, principalOf(ctx), {
    tableId: ctx.input.params.tableId, rowId: ctx.input.params.recordId, comment: ctx.input.body.comment, parentCommentId: ctx.input.body.parent_comment_id,
  }));
  route(router, c.commentUpdateV2, user, (ctx) => editComment(ports, principalOf(ctx), ctx.input.params.commentId, { comment: ctx.input.body.comment }));
  route(router, c.commentDeleteV2, user, (ctx) => deleteComment(ports, principalOf(ctx), ctx.input.params.commentId));
  route(router, c.commentResolve, user, (ctx) => resolveComment(ports, principalOf(ctx), ctx.input.params.commentId, ctx.input.body.resolved));
  return router;
}
