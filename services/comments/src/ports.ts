import type { CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { CommentsConfig } from './config';
import type { TableDirectory } from './adapters/table-directory';
import type { RecordDirectory } from './adapters/record-directory';

/** The schema the comments service owns. */
export const COMMENTS_SCHEMA = 'comments';

/** What the comments service is handed at start-up. */
export interface CommentsPorts extends CommonPorts {
  config: CommentsConfig;
  /** Publishes what our transactions put in the outbox. */
  relay: OutboxRelay;
  /** Tables (base, source, primary key) from meta, cached. */
  tables: TableDirectory;
  /** Record existence from data, cached briefly. */
  records: RecordDirectory;
}
