import type { Knex } from 'knex';

/** What {@link withOutbox} nudges after the commit: an `OutboxRelay`. */
export interface OutboxNudge {
  nudge(): Promise<void>;
}

/**
 * The one way a service writes a change with its events: `work` writes the
 * change and its outbox rows (`enqueueEvent`) in one transaction of `db`, so
 * the events exist exactly when the change committed; then the relay is nudged
 * to publish at once (its poll would pick the rows up anyway). Resolves with
 * what `work` answered; a failed publish never fails the caller.
 */
export async function withOutbox<T>(db: Knex, relay: OutboxNudge, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await db.transaction(work);
  await relay.nudge();
  return result;
}
