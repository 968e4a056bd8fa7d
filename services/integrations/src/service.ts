import { defineService, observeOutbox, persistentSecret, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { metaIntegrationSourcesEndpoints } from '@tabula/contracts';
import { clientOf } from '@tabula/http';
import { integrationsConfigSchema, type IntegrationsConfig } from './config';
import { createApp, type IntegrationsPorts } from './app';
import { migrations } from '../migrations';
import { KeyRing } from './lib/key-ring';
import { INTEGRATIONS_SCHEMA } from './repositories/integration.repository';

/** The key ring from the setting, or one key derived like the other services derive theirs. */
export function keyRingOf(common: Pick<CommonPorts, 'platform' | 'internalSecret'>, config: IntegrationsConfig): KeyRing {
  if (config.SVC_INTEGRATIONS_ENCRYPTION_KEY) return KeyRing.fromSetting(config.SVC_INTEGRATIONS_ENCRYPTION_KEY);
  // standalone without a configured internal secret generates one per process: keep a key under DATA_DIR instead
  const material = common.platform.SVC_INTERNAL_SECRET ? common.internalSecret : persistentSecret(common.platform.DATA_DIR, 'integrations-encryption-key');
  return new KeyRing([material]);
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
