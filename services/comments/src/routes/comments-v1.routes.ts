import Router from '@koa/router';
import { commentsEndpoints as c } from '@tabula/contracts';
import { requireUser, principalOf } from '@tabula/auth';
import { route } from '@tabula/http';
import type { CommentsPorts } from '../ports';
import { createComment } from '../domain/comments/create-comment';
import { countComments, listComments } from '../domain/comments/list-comments';
import { deleteComment, editComment } from '../domain/comments/change-comment';

/** The v1 comment paths (`/api/v1/db/meta/comments`, `/api/v1/db/meta/comment/{id}`). */
export function commentsV1Router(ports: CommentsPorts): Router {
  const router = new Router();
  const user = requireUser({ allowApiToken: true });
  // count before list: both are GETs under /comments and the router matches in order
  route(router, c.commentCount, user, (ctx) =>
    countComments(ports, principalOf(ctx), ctx.input.query.fk_model_id, ctx.input.query.ids));
  route(router, c.commentList, user, (ctx) => {
    const { fk_model_id: tableId, row_id: rowId, ...paging } = ctx.input.query;
    return listComments(ports, principalOf(ctx), { tableId, rowId }, paging);
  });
  route(router, c.commentCreate, user, (ctx) => {
    const b = ctx.input.body;
    return createComment(ports, principalOf(ctx), { tableId: b.fk_model_id, rowId: b.row_id, comment: b.comment, parentCommentId: b.parent_comment_id });
  });
  route(router, c.commentUpdate, user, (ctx) =>
    editComment(ports, principalOf(ctx), ctx.input.params.commentId, { comment: ctx.input.body.comment, tableId: ctx.input.body.fk_model_id }));
  route(router, c.commentDelete, user, (ctx) => deleteComment(ports, principalOf(ctx), ctx.input.params.commentId));
  return router;
}
