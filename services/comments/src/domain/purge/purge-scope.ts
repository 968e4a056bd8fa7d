import { handleOnce } from '@tabula/events';
import { COMMENTS_SCHEMA, type CommentsPorts } from '../../ports';
import { purgeComments } from '../../repositories/comment.repository';
import { lockScope, markPurged, type PurgeScope } from '../../repositories/purge.repository';

/** The consumer name of the comments service's durable subscriptions (processed_events). */
export const COMMENTS_CONSUMER = 'comments';

/**
 * A table or base was deleted: its comments go for good, at most once per
 * event id. The exclusive scope lock waits for comments being created in it,
 * and the tombstone refuses later ones.
 */
export async function purgeScope(ports: CommentsPorts, eventId: string, scope: PurgeScope): Promise<number> {
  let removed = 0;
  await handleOnce(ports.db, COMMENTS_SCHEMA, COMMENTS_CONSUMER, eventId, async (trx) => {
    await lockScope(trx, scope.id, 'exclusive');
    await markPurged(trx, scope);
    removed = await purgeComments(trx, scope.kind === 'table' ? { tableId: scope.id } : { baseId: scope.id });
  });
  if (scope.kind === 'table') {
    ports.tables.invalidate(scope.id);
    ports.records.forget(scope.id);
  } else {
    ports.tables.invalidate(scope.id);
    ports.records.clear();
  }
  if (removed) ports.logger.info({ scope, removed }, 'comments purged');
  return removed;
}
