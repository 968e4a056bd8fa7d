import type { CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { EndpointClient } from '@tabula/http';
import type { storageShareEndpoints } from '@tabula/contracts';
import type { MetaConfig } from './config';
import type { SourceRegistry } from './sources/source-registry';

/** What the meta service is handed at start-up. */
export interface MetaPorts extends CommonPorts {
  config: MetaConfig;
  /** One knex pool per data source. */
  sources: SourceRegistry;
  /** Publishes what our transactions put in the outbox. */
  relay: OutboxRelay;
  /** Storage's internal API: a duplicated base's attachments are shared with the copy. */
  storage: EndpointClient<typeof storageShareEndpoints>;
}
