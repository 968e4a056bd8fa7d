import type { CommonPorts } from '@tabula/runtime';
import type { EndpointClient } from '@tabula/http';
import type { metaInternalEndpoints } from '@tabula/contracts';
import type { RealtimeConfig } from './config';
import type { FeedHub } from './domain/feed-hub';

export { REALTIME_SCHEMA } from './repositories/realtime-db';

/** What the realtime service is handed at start-up. */
export interface RealtimePorts extends CommonPorts {
  config: RealtimeConfig;
  /** Tables' contexts (base, columns) from meta. */
  meta: EndpointClient<typeof metaInternalEndpoints>;
  /** This process's streams and the tail of the feed log. */
  hub: FeedHub;
}
