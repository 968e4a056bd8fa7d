import { KeyRing, defineService, keyMaterial, observeOutbox, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { metaIntegrationSourcesEndpoints } from '@tabula/contracts';
import { clientOf } from '@tabula/http';
import { integrationsConfigSchema, type IntegrationsConfig } from './config';
import { createApp, type IntegrationsPorts } from './app';
import { migrations } from '../migrations';
import { INTEGRATIONS_SCHEMA } from './repositories/integration.repository';

/** What the integrations key ring seals: integration configs (the derivation is part of the stored data's format). */
export const INTEGRATION_SECRETS_PURPOSE = 'tabula-integrations';

/** The key ring from the setting, or one key derived like the other services derive theirs. */
export function keyRingOf(common: Pick<CommonPorts, 'platform' | 'internalSecret'>, config: IntegrationsConfig): KeyRing {
  if (config.SVC_INTEGRATIONS_ENCRYPTION_KEY) return KeyRing.fromSetting(INTEGRATION_SECRETS_PURPOSE, config.SVC_INTEGRATIONS_ENCRYPTION_KEY);
  return new KeyRing(INTEGRATION_SECRETS_PURPOSE, [keyMaterial(common, undefined, 'integrations-encryption-key')]);
}

/** Builds the integrations ports from the platform's (also used by tests and the rotation command). */
export function buildIntegrationsPorts(common: CommonPorts, config: IntegrationsConfig): IntegrationsPorts {
  return {
    ...common, config, ring: keyRingOf(common, config),
    relay: observeOutbox(common.metrics, new OutboxRelay({ knex: common.db, schema: INTEGRATIONS_SCHEMA, bus: common.bus, logger: common.logger })),
    meta: clientOf(common.services, metaIntegrationSourcesEndpoints),
  };
}

/** The integrations service (ARCHITECTURE.md "Services"). */
export const integrationsService = defineService<IntegrationsConfig, IntegrationsPorts>({
  name: 'integrations',
  schema: INTEGRATIONS_SCHEMA,
  migrations,
  configSchema: integrationsConfigSchema,
  buildPorts: buildIntegrationsPorts,
  createApp,
  async start(ports) {
    await ports.relay.start();
    return [{ stop: () => ports.relay.stop() }];
  },
});
