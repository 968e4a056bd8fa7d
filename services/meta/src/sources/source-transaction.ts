import { withOutbox } from '@tabula/events';
import type { Knex } from 'knex';
import type { MetaPorts } from '../ports';
import type { SourceHandle } from '../ddl/dialect';

/**
 * Runs DDL on a source and the matching metadata change so that either both
 * land or neither: the metadata transaction commits inside the source's
 * transaction. PostgreSQL and SQLite roll DDL back; MySQL/MariaDB commit DDL
 * implicitly, so there a failing metadata write can leave the DDL applied.
 */
export async function inSourceAndMetaTransaction<T>(
  ports: MetaPorts, handle: SourceHandle, work: (ddl: SourceHandle, trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return handle.knex.transaction(async (ddlTrx) =>
    withOutbox(ports.db, ports.relay, (trx) => work({ ...handle, knex: ddlTrx }, trx)));
}
