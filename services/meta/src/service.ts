import { SecretBox, defineService, keyMaterial, observeOutbox, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { clientOf } from '@tabula/http';
import { storageShareEndpoints } from '@tabula/contracts';
import { metaConfigSchema, type MetaConfig } from './config';
import { createApp } from './app';
import type { MetaPorts } from './ports';
import { migrations } from '../migrations';
import { SourceRegistry } from './sources/source-registry';
import { META_SCHEMA } from './repositories/meta-db';
import { integrationsConsumer } from './consumers/integrations.consumer';

/** What meta's key seals: source credentials (the derivation is part of the stored data's format). */
export const META_SECRETS_PURPOSE = 'tabula-meta-sources';

/** Builds the meta ports from the platform's (also used by tests that build the app by hand). */
export function buildMetaPorts(common: CommonPorts, config: MetaConfig): MetaPorts {
  const box = new SecretBox(META_SECRETS_PURPOSE, keyMaterial(common, config.SVC_META_ENCRYPTION_KEY, 'meta-encryption-key'));
  const relay = new OutboxRelay({ knex: common.db, schema: META_SCHEMA, bus: common.bus, logger: common.logger });
  observeOutbox(common.metrics, relay);
  return { ...common, config, sources: new SourceRegistry(common.dataDb, box), relay, storage: clientOf(common.services, storageShareEndpoints) };
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
    await ports.relay.start();
    const integrations = await integrationsConsumer.start(ports);
    return [integrations, { drain: () => ports.relay.flush(), stop: async () => { await ports.relay.stop(); await ports.sources.close(); } }];
  },
});
