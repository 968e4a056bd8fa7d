import { defineService, observeOutbox, persistentSecret, type CommonPorts } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { metaConfigSchema, type MetaConfig } from './config';
import { createApp } from './app';
import type { MetaPorts } from './ports';
import { migrations } from '../migrations';
import { SecretBox } from './lib/secret-box';
import { SourceRegistry } from './sources/source-registry';
import { META_SCHEMA } from './repositories/meta-db';
import { startIntegrationEventsConsumer } from './consumers/integration-events.consumer';

/** Builds the meta ports from the platform's (also used by tests that build the app by hand). */
export function buildMetaPorts(common: CommonPorts, config: MetaConfig): MetaPorts {
  // without a configured internal secret, standalone generates one per process; credentials sealed with
  // it would not open after a restart, so fall back to a key kept under DATA_DIR
  const material = config.SVC_META_ENCRYPTION_KEY
    ?? (common.platform.SVC_INTERNAL_SECRET ? common.internalSecret : persistentSecret(common.platform.DATA_DIR, 'meta-encryption-key'));
  const box = new SecretBox(material);
  const relay = new OutboxRelay({ knex: common.db, schema: META_SCHEMA, bus: common.bus, logger: common.logger });
  observeOutbox(common.metrics, relay);
  return { ...common, config, sources: new SourceRegistry(common.dataDb, box), relay };
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
    const integrations = await startIntegrationEventsConsumer(ports);
    return [integrations, { drain: () => ports.relay.flush(), stop: async () => { await ports.relay.stop(); await ports.sources.close(); } }];
  },
});
