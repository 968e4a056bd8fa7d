import type Router from '@koa/router';
import { commentsEndpoints as c } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { CommentsPorts } from '../ports';
import { createComment } from '../domain/comments/create-comment';
import { listComments } from '../domain/comments/list-comments';
import { deleteComment, editComment, resolveComment } from '../domain/comments/change-comment';

/** The v2 comment paths (`/api/v2/tables/{tableId}/records/{recordId}/comments`, `/api/v2/comments/{id}`). */
export function commentsV2Router(ports: CommentsPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, c.commentListV2, (ctx) => listComments(ports, scopeOf(ctx), ctx.input.params.recordId, ctx.input.query));
  route(router, c.commentCreateV2, (ctx) => createComment(ports, scopeOf(ctx), {
    rowId: ctx.input.params.recordId, comment: ctx.input.body.comment, parentCommentId: ctx.input.body.parent_comment_id,
  }));
  route(router, c.commentUpdateV2, (ctx) => editComment(ports, scopeOf(ctx), { comment: ctx.input.body.comment }));
  route(router, c.commentDeleteV2, (ctx) => deleteComment(ports, scopeOf(ctx)));
  route(router, c.commentResolve, (ctx) => resolveComment(ports, scopeOf(ctx), ctx.input.body.resolved));
  return router;
}
