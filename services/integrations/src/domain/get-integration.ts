import type { IntegrationsPorts } from '../ports';
import { presentIntegration, type PresentOptions } from '../presenters/integration.presenter';
import { configVisibility } from './integration-access';
import type { IntegrationInScope } from './integration-scope';
import { definitionOf, openConfig } from './load-integration';

/**
 * One integration (the guard let an integration manager through).
 * `includeConfig`: whole to its creator, masked to other managers.
 */
export async function getIntegration(ports: IntegrationsPorts, scope: IntegrationInScope, flags: { includeConfig: boolean; includeSources: boolean }) {
  const { value: row, principal } = scope;
  const options: PresentOptions = {};
  if (flags.includeConfig) {
    options.config = { value: openConfig(ports, row), visibility: configVisibility(row, principal), secretFields: definitionOf(row).secret_fields };
  }
  if (flags.includeSources) options.sources = (await ports.meta.metaIntegrationSources({ params: { integrationId: row.id } })).list;
  return presentIntegration(row, options);
}
