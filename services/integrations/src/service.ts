import { AtRestRing, defineService, encryptionKeysOf, legacyMaterials, observeOutbox, resealOnStart, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { metaIntegrationSourcesEndpoints } from '@tabula/contracts';
import { clientOf } from '@tabula/http';
import { integrationsConfigSchema, type IntegrationsConfig } from './config';
import { createApp, type IntegrationsPorts } from './app';
import { migrations } from '../migrations';
import { INTEGRATIONS_SCHEMA, sealedIntegrationConfigs } from './repositories/integration.repository';

/** What the integrations key ring seals: integration configs (the derivation is part of the stored data's format). */
export const INTEGRATION_SECRETS_PURPOSE = 'tabula-integrations';

/**
 * Integration configs' ring: SVC_ENCRYPTION_KEYS; the former ring
 * (SVC_INTEGRATIONS_ENCRYPTION_KEY, else the internal secret or its file) only
 * opens what was sealed before it, until the re-seal has run.
 */
export function keyRingOf(common: Pick<CommonPorts, 'platform'>, config: IntegrationsConfig): AtRestRing {
  const configured = (config.SVC_INTEGRATIONS_ENCRYPTION_KEY ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const legacy = legacyMaterials(common.platform, { configured, fileName: 'integrations-encryption-key' });
  return new AtRestRing(INTEGRATION_SECRETS_PURPOSE, encryptionKeysOf(common.platform), legacy);
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
    await resealOnStart(ports, ports.ring, sealedIntegrationConfigs, 'integrations.integrations.config_sealed');
    await ports.relay.start();
    return [{ stop: () => ports.relay.stop() }];
  },
});
