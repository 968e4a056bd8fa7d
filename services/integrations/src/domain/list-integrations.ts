import type { Principal } from '@tabula/auth';
import { resolvePaging, type EndpointInput, type integrationList } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { listIntegrations as listRows } from '../repositories/integration.repository';
import { presentIntegration } from '../presenters/integration.presenter';
import { definitionOf, openConfig } from './load-integration';

/** Lists the integrations the caller may see (org creator or above): an array (the spec), paged by limit/offset. */
export async function listIntegrations(ports: IntegrationsPorts, principal: Principal, query: EndpointInput<typeof integrationList>['query']) {
  const { limit, offset } = resolvePaging(query);
  const filter = { viewerId: principal.id, type: query.type, query: query.query };
  const rows = await listRows(ports.db, filter, limit, offset);
  return rows.map((row) => {
    if (!query.includeDatabaseInfo || row.type !== 'database') return presentIntegration(row);
    return presentIntegration(row, { dbInfo: { value: openConfig(ports, row), definition: definitionOf(row) } });
  });
}
