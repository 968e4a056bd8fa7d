import { defineService, observeOutbox, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { commentsConfigSchema, type CommentsConfig } from './config';
import { createApp } from './app';
import { COMMENTS_SCHEMA, type CommentsPorts } from './ports';
import { migrations } from '../migrations';
import { TableDirectory } from './adapters/table-directory';
import { RecordDirectory } from './adapters/record-directory';
import { deletionsConsumer } from './consumers/deletions.consumer';
import { cacheConsumer } from './consumers/cache.consumer';

/** Builds the comments ports from the platform's (also used by tests that build the app by hand). */
export function buildCommentsPorts(common: CommonPorts, config: CommentsConfig): CommentsPorts {
  return {
    ...common, config,
    relay: observeOutbox(common.metrics, new OutboxRelay({ knex: common.db, schema: COMMENTS_SCHEMA, bus: common.bus, logger: common.logger })),
    tables: new TableDirectory(common.services, config.SVC_COMMENTS_TABLE_CACHE_TTL_MS),
    records: new RecordDirectory(common.services, config.SVC_COMMENTS_RECORD_CACHE_TTL_MS),
  };
}

/** The comments service (ARCHITECTURE.md "Services"). */
export const commentsService = defineService<CommentsConfig, CommentsPorts>({
  name: 'comments',
  schema: COMMENTS_SCHEMA,
  migrations,
  configSchema: commentsConfigSchema,
  buildPorts: buildCommentsPorts,
  createApp,
  async start(ports) {
    ports.relay.start();
    const cache = await cacheConsumer.start(ports);
    const deletions = await deletionsConsumer.start(ports);
    return [deletions, cache, { stop: () => ports.relay.stop() }];
  },
});
