import type { Principal } from '@tabula/auth';
import type { EndpointInput, integrationList } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { listIntegrations as listRows } from '../repositories/integration.repository';
import { presentIntegration } from '../presenters/integration.presenter';
import { assertMayManage } from './integration-access';
import { definitionOf, openConfig } from './load-integration';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 1000;

/** Lists the integrations the caller may see (org creator or above): an array (the spec), paged by limit/offset. */
export async function listIntegrations(ports: IntegrationsPorts, principal: Principal, query: EndpointInput<typeof integrationList>['query']) {
  assertMayManage(principal);
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = query.offset ?? 0;
  const filter = { viewerId: principal.id, type: query.type, query: query.query };
  const rows = await listRows(ports.db, filter, limit, offset);
  return rows.map((row) => {
    if (!query.includeDatabaseInfo || row.type !== 'database') return presentIntegration(row);
    return presentIntegration(row, { dbInfo: { value: openConfig(ports, row), definition: definitionOf(row) } });
  });
}
