import type { Knex } from 'knex';
import type { AuthPorts } from '../ports';

/**
 * Runs an auth change and the outbox rows of its events in one transaction,
 * then asks the relay to publish at once. A failed publish is not the
 * caller's error: the rows stay in `auth.outbox` and the relay's poll
 * publishes them when the bus is back (at least once; consumers dedupe).
 */
export async function inAuthTransaction<T>(ports: AuthPorts, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await ports.db.transaction(work);
  await ports.relay.flush().catch((err: unknown) => ports.logger.warn({ err }, 'auth outbox flush failed; the relay will retry'));
  return result;
}
