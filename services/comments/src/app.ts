import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { CommentsPorts } from './ports';
import { commentScopes } from './domain/comments/comment-access';
import { commentsV1Router } from './routes/comments-v1.routes';
import { commentsV2Router } from './routes/comments-v2.routes';

export type { CommentsPorts } from './ports';

/** Builds the comments service app; never listens, reads no environment. */
export function createApp(ports: CommentsPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, commentScopes(ports));
  return standardServiceApp(ports, { routers: [commentsV1Router(ports, authorizer), commentsV2Router(ports, authorizer)] });
}
