import { appError, errors } from '@tabula/http';
import type { IntegrationsPorts } from '../ports';
import type { IntegrationInScope } from './integration-scope';
import { definitionOf, openConfig } from './load-integration';
import { callDatabaseEndpoint } from './endpoints/database-endpoints';
import { chat } from './endpoints/ai-chat';

/**
 * `POST /api/v2/integrations/{id}/{endpoint}`: an endpoint of the integration's
 * sub-type. Unknown endpoint → 404; disabled integration → 400.
 */
export async function callEndpoint(ports: IntegrationsPorts, scope: IntegrationInScope, endpoint: string, body: Record<string, unknown>) {
  const row = scope.value;
  const definition = definitionOf(row);
  if (!definition.endpoints.includes(endpoint)) {
    throw errors.notFound('ERR_INTEGRATION_ENDPOINT_NOT_FOUND', `Integration type ${row.type}/${row.sub_type} has no endpoint '${endpoint}'`);
  }
  if (!row.enabled) throw appError('ERR_INTEGRATION_DISABLED', `Integration '${row.title}' is disabled`);
  const config = openConfig(ports, row);
  if (row.type === 'ai' && endpoint === 'chat') return chat(ports, row.id, config, body);
  return callDatabaseEndpoint(ports, row.sub_type as 'pg' | 'mysql2' | 'sqlite3', endpoint, config, body);
}
