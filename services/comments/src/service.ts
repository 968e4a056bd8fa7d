import { defineService } from '@tabula/runtime';
import { commentsConfigSchema, type CommentsConfig } from './config';
import { createApp, type CommentsPorts } from './app';
import { migrations } from '../migrations';

/** The comments service (ARCHITECTURE.md "Services"). */
export const commentsService = defineService<CommentsConfig, CommentsPorts>({
  name: 'comments',
  schema: 'comments',
  migrations,
  configSchema: commentsConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
