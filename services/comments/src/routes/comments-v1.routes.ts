import type Router from '@koa/router';
import { commentsEndpoints as c } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { CommentsPorts } from '../ports';
import { createComment } from '../domain/comments/create-comment';
import { countComments, listComments } from '../domain/comments/list-comments';
import { deleteComment, editComment } from '../domain/comments/change-comment';

/** The v1 comment paths (`/api/v1/db/meta/comments`, `/api/v1/db/meta/comment/{id}`). */
export function commentsV1Router(ports: CommentsPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  // count before list: both are GETs under /comments and the router matches in order
  route(router, c.commentCount, (ctx) => countComments(ports, scopeOf(ctx), ctx.input.query.ids));
  route(router, c.commentList, (ctx) => {
    const { fk_model_id: _tableId, row_id: rowId, ...paging } = ctx.input.query;
    return listComments(ports, scopeOf(ctx), rowId, paging);
  });
  route(router, c.commentCreate, (ctx) => {
    const b = ctx.input.body;
    return createComment(ports, scopeOf(ctx), { rowId: b.row_id, comment: b.comment, parentCommentId: b.parent_comment_id });
  });
  route(router, c.commentUpdate, (ctx) =>
    editComment(ports, scopeOf(ctx), { comment: ctx.input.body.comment, tableId: ctx.input.body.fk_model_id }));
  route(router, c.commentDelete, (ctx) => deleteComment(ports, scopeOf(ctx)));
  return router;
}
