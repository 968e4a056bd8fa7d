import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { CommentsConfig } from './config';

/** What the comments service is handed at start-up. */
export interface CommentsPorts extends CommonPorts {
  config: CommentsConfig;
}

/** Builds the comments service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: CommentsPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
