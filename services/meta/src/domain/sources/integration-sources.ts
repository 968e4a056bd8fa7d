import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';

/** A source of a base-create body, possibly naming an integration instead of a config. */
export interface SourceInput {
  type?: 'pg' | 'mysql2' | 'sqlite3';
  config?: unknown;
  alias?: string;
  fk_integration_id?: string;
}

const DRIVERS = ['pg', 'mysql2', 'sqlite3'] as const;

/**
 * Fills `type` and `config` of sources built on an integration from its
 * decrypted config (asked server-side through the typed internal client; the
 * caller must be able to see the integration). Other sources pass unchanged.
 */
export async function resolveIntegrationSources(
  ports: MetaPorts, principal: Principal, sources: SourceInput[],
): Promise<(SourceInput & { type: (typeof DRIVERS)[number] })[]> {
  const client = ports.clients.integrations;
  return Promise.all(sources.map(async (s, i) => {
    if (!s.fk_integration_id) {
      if (!s.type) throw errors.badRequest(`sources[${i}].type is required`);
      return { ...s, type: s.type };
    }
    const integration = await client.integrationConfigInternal({ params: { integrationId: s.fk_integration_id }, query: { userId: principal.id } })
      .catch((err: { status?: number }) => {
        if (err.status === 404) throw errors.badRequest(`sources[${i}].fk_integration_id: integration '${s.fk_integration_id}' not found`);
        throw err;
      });
    const driver = DRIVERS.find((d) => d === integration.sub_type);
    if (integration.type !== 'database' || !driver) {
      throw errors.badRequest(`sources[${i}].fk_integration_id: integration '${integration.title}' (${integration.type}/${integration.sub_type}) cannot back a data source`);
    }
    if (!integration.enabled) throw errors.badRequest(`sources[${i}].fk_integration_id: integration '${integration.title}' is disabled`);
    return { ...s, type: driver, config: integration.config };
  }));
}
