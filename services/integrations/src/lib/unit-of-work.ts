import type { Knex } from 'knex';
import type { IntegrationsPorts } from '../ports';

/** Runs changes and their outbox events in one transaction, then asks the relay to publish at once. */
export async function inTransaction<T>(ports: IntegrationsPorts, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await ports.db.transaction(work);
  await ports.relay.flush().catch((err: unknown) => ports.logger.warn({ err }, 'outbox flush failed; the relay will retry'));
  return result;
}
