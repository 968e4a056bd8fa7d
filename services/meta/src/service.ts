import { AtRestRing, defineService, encryptionKeysOf, legacyMaterials, observeOutbox, resealOnStart, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { metaConfigSchema, type MetaConfig } from './config';
import { createApp } from './app';
import type { MetaPorts } from './ports';
import { migrations } from '../migrations';
import { SourceRegistry } from './sources/source-registry';
import { META_SCHEMA } from './repositories/meta-db';
import { sealedSourceConfigs } from './repositories/source.repository';
import { integrationsConsumer } from './consumers/integrations.consumer';
import { metaClients } from './adapters/service-clients';

/** What meta's key seals: source credentials (the derivation is part of the stored data's format). */
export const META_SECRETS_PURPOSE = 'tabula-meta-sources';

/** Builds the meta ports from the platform's (also used by tests that build the app by hand). */
export function buildMetaPorts(common: CommonPorts, config: MetaConfig): MetaPorts {
  // Sealed with SVC_ENCRYPTION_KEYS; the former keys only open what was sealed before it (re-sealed at start).
  const legacy = legacyMaterials(common.platform, { configured: config.SVC_META_ENCRYPTION_KEY ? [config.SVC_META_ENCRYPTION_KEY] : [], fileName: 'meta-encryption-key' });
  const box = new AtRestRing(META_SECRETS_PURPOSE, encryptionKeysOf(common.platform), legacy);
  const relay = new OutboxRelay({ knex: common.db, schema: META_SCHEMA, bus: common.bus, logger: common.logger });
  observeOutbox(common.metrics, relay);
  return { ...common, config, box, sources: new SourceRegistry(common.dataDb, box), relay, clients: metaClients(common.services) };
}

/** The meta service (ARCHITECTURE.md "Services"). */
export const metaService = defineService<MetaConfig, MetaPorts>({
  name: 'meta',
  schema: META_SCHEMA,
  migrations,
  configSchema: metaConfigSchema,
  buildPorts: buildMetaPorts,
  createApp,
  async start(ports) {
    await resealOnStart(ports, ports.box, sealedSourceConfigs, 'meta.sources.config');
    await ports.relay.start();
    const integrations = await integrationsConsumer.start(ports);
    return [integrations, { drain: () => ports.relay.flush(), stop: async () => { await ports.relay.stop(); await ports.sources.close(); } }];
  },
});
