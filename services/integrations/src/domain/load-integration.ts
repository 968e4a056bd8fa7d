import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { IntegrationsPorts } from '../ports';
import { findIntegration, type IntegrationRow } from '../repositories/integration.repository';
import { subTypeOf } from '../registry/type-registry';
import type { SubTypeDefinition } from '../registry/type-definition';
import { canSee } from './integration-access';

/** 404 for an integration that is missing or private to someone else (its existence is not revealed). */
export async function loadVisible(ports: IntegrationsPorts, id: string, principal: Principal): Promise<IntegrationRow> {
  const row = await findIntegration(ports.db, id);
  if (!row || !canSee(row, principal)) throw errors.notFound('ERR_INTEGRATION_NOT_FOUND', `Integration '${id}' not found`);
  return row;
}

/** The decrypted config of a row (server side only). */
export function openConfig(ports: IntegrationsPorts, row: IntegrationRow): Record<string, unknown> {
  return ports.ring.open<Record<string, unknown>>(row.config_sealed);
}

/** The registry entry of a stored row. */
export function definitionOf(row: IntegrationRow): SubTypeDefinition {
  return subTypeOf(row.type, row.sub_type);
}
