import type { Knex } from 'knex';
import type { MetaPorts } from '../ports';

/**
 * Runs metadata changes and their outbox events in one transaction, then asks
 * the relay to publish at once (the relay's poll would pick them up anyway).
 */
export async function inMetaTransaction<T>(ports: MetaPorts, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await ports.db.transaction(work);
  await ports.relay.flush().catch((err: unknown) => ports.logger.warn({ err }, 'outbox flush failed; the relay will retry'));
  return result;
}
