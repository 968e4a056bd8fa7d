import type { IntegrationsPorts } from '../ports';
import type { IntegrationRow } from '../repositories/integration.repository';
import { subTypeOf } from '../registry/type-registry';
import type { SubTypeDefinition } from '../registry/type-definition';

/** The decrypted config of a row (server side only). */
export function openConfig(ports: IntegrationsPorts, row: IntegrationRow): Record<string, unknown> {
  return ports.ring.open<Record<string, unknown>>(row.config_sealed);
}

/** The registry entry of a stored row. */
export function definitionOf(row: IntegrationRow): SubTypeDefinition {
  return subTypeOf(row.type, row.sub_type);
}
