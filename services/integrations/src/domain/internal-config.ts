import { errors } from '@tabula/http';
import type { IntegrationType } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { findIntegration } from '../repositories/integration.repository';
import { openConfig } from './load-integration';

/**
 * The decrypted config for another service (meta building a source). With a
 * user id, a private integration answers only for its creator (404 otherwise,
 * as to the user himself).
 */
export async function internalConfig(ports: IntegrationsPorts, id: string, userId?: string) {
  const row = await findIntegration(ports.db, id);
  if (!row || (userId && row.is_private && row.created_by !== userId)) throw errors.notFound('ERR_INTEGRATION_NOT_FOUND', `Integration '${id}' not found`);
  return {
    id: row.id, title: row.title, type: row.type as IntegrationType, sub_type: row.sub_type, enabled: row.enabled, config: openConfig(ports, row),
  };
}
