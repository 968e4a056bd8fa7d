import { withOutbox } from '@tabula/events';
import { errors } from '@tabula/http';
import type { IntegrationsPorts } from '../ports';
import { deleteIntegration as deleteRow } from '../repositories/integration.repository';
import { enqueueIntegrationEvent } from '../events/integration-event.producer';
import { assertMayEdit } from './integration-access';
import type { IntegrationInScope } from './integration-scope';

/**
 * Deletes an integration. While sources are built on it: 400 unless `force`,
 * which deletes anyway; meta detaches those sources on the deleted event (they
 * keep the connection they were built with).
 */
export async function deleteIntegration(ports: IntegrationsPorts, scope: IntegrationInScope, force: boolean): Promise<boolean> {
  const { value: row, principal } = scope;
  assertMayEdit(row, principal);
  const { list } = await ports.meta.metaIntegrationSources({ params: { integrationId: row.id } });
  if (list.length > 0 && !force) {
    throw errors.badRequest(
      `Integration '${row.title}' is used by ${list.length} source(s) (bases ${[...new Set(list.map((s) => s.base_id))].join(', ')}); pass force=true to delete it and detach them`,
      { sources: list },
    );
  }
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteRow(trx, row.id);
    await enqueueIntegrationEvent(trx, 'deleted', row, principal);
  });
  return true;
}
