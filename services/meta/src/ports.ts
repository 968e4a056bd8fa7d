import type { AtRestRing, CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { MetaConfig } from './config';
import type { SourceRegistry } from './sources/source-registry';
import type { MetaClients } from './adapters/service-clients';

/** What the meta service is handed at start-up. */
export interface MetaPorts extends CommonPorts {
  config: MetaConfig;
  /** Seals external sources' settings at rest (SVC_ENCRYPTION_KEYS). */
  box: AtRestRing;
  /** One knex pool per data source. */
  sources: SourceRegistry;
  /** Publishes what our transactions put in the outbox. */
  relay: OutboxRelay;
  /** The typed clients of the other services meta calls (auth, hooks, integrations, storage). */
  clients: MetaClients;
}
