import type { Principal } from '@tabula/auth';
import type { IntegrationsPorts } from '../ports';
import { presentIntegration, type PresentOptions } from '../presenters/integration.presenter';
import { configVisibility } from './integration-access';
import { definitionOf, loadVisible, openConfig } from './load-integration';

/**
 * One integration. `includeConfig`: whole to its creator, masked to other org
 * admins, left out for anyone else (never a 403, never a leak).
 */
export async function getIntegration(
  ports: IntegrationsPorts, principal: Principal, id: string, flags: { includeConfig: boolean; includeSources: boolean },
) {
  const row = await loadVisible(ports, id, principal);
  const options: PresentOptions = {};
  const visibility = configVisibility(row, principal);
  if (flags.includeConfig && visibility !== 'none') {
    options.config = { value: openConfig(ports, row), visibility, secretFields: definitionOf(row).secret_fields };
  }
  if (flags.includeSources) options.sources = (await ports.meta.metaIntegrationSources({ params: { integrationId: row.id } })).list;
  return presentIntegration(row, options);
}
