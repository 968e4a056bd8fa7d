import { defineService, observeOutbox, type CommonPorts, type Worker } from '@tabula/runtime';
import { OutboxRelay } from '@tabula/events';
import { SourceRegistry, runMigrations } from '@tabula/db';
import { dataConfigSchema, type DataConfig } from './config';
import { createApp, requestHandler } from './app';
import type { DataPorts } from './ports';
import { migrations } from '../migrations';
import { TableResolver } from './context/table-handle';
import { RowCounter } from './domain/row-counter';
import { DATA_SCHEMA } from './events/records-event.producer';
import { metaCacheConsumer } from './consumers/meta-cache.consumer';
import { SyncHooksClient } from './adapters/sync-hooks.client';
import { OutboxFlusher } from './events/outbox-flusher';
import { hookEventsConsumer } from './consumers/hook-events.consumer';
import { dataClientsOf } from './adapters/service-clients';

/**
 * Builds the data ports. The outbox relay reads `dataDb`: default sources'
 * rows live there, so a write and its event share one transaction.
 */
export function buildDataPorts(common: CommonPorts, config: DataConfig): DataPorts {
  const sources = new SourceRegistry(common.dataDb, { preparedPerConnection: config.SVC_PG_PREPARED_PER_CONNECTION });
  const relay = new OutboxRelay({ knex: common.dataDb, schema: DATA_SCHEMA, bus: common.bus, logger: common.logger });
  observeOutbox(common.metrics, relay);
  const clients = dataClientsOf(common.services);
  return {
    ...common, config, sources, meta: clients.meta, storage: clients.storage, auth: clients.auth,
    tables: new TableResolver(clients.meta, sources, config.SVC_TABLE_CACHE_TTL_MS),
    counter: new RowCounter(config.SVC_EXACT_COUNT_MAX_ROWS),
    relay,
    outboxFlusher: new OutboxFlusher(relay, common.logger, config.SVC_OUTBOX_FLUSH_DELAY_MS),
    syncHooks: new SyncHooksClient(clients.hooks, common.logger, undefined, config.SVC_SYNC_HOOKS_CACHE_TTL_MS),
  };
}

/** The data service (ARCHITECTURE.md "Services"). */
export const dataService = defineService<DataConfig, DataPorts>({
  name: 'data',
  schema: DATA_SCHEMA,
  migrations,
  configSchema: dataConfigSchema,
  buildPorts: buildDataPorts,
  createApp,
  requestHandler,
  async start(ports): Promise<Worker[]> {
    // The runtime migrated `db`; a separate data database needs its own outbox.
    if (ports.dataDb !== ports.db) await runMigrations(ports.dataDb, DATA_SCHEMA, migrations);
    ports.relay.start();
    const metaConsumer = await metaCacheConsumer.start(ports);
    const hookFlags = await hookEventsConsumer.start(ports);
    return [
      metaConsumer, hookFlags,
      { drain: () => ports.relay.flush(), stop: async () => { await ports.relay.stop(); await ports.sources.close(); } },
    ];
  },
});
