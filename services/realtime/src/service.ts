import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { defineService, type CommonPorts } from '@tabula/runtime';
import { metaInternalEndpoints } from '@tabula/contracts';
import { clientOf } from '@tabula/http';
import { realtimeConfigSchema, type RealtimeConfig } from './config';
import { createApp, realtimeAuthorizer } from './app';
import { socketUpgradeHandler } from './routes/events.socket';
import { REALTIME_SCHEMA, type RealtimePorts } from './ports';
import { migrations } from '../migrations';
import { FeedHub } from './domain/feed-hub';
import { compileWhere } from './domain/feed-filter';
import { columnMetas, loadTable } from './domain/stream-scope';
import { feedLogConsumer } from './consumers/feed-log.consumer';
import { accessConsumer } from './consumers/access.consumer';

/** Builds the realtime ports from the platform's. */
export function buildRealtimePorts(common: CommonPorts, config: RealtimeConfig): RealtimePorts {
  const meta = clientOf(common.services, metaInternalEndpoints);
  const hub = new FeedHub({
    db: common.db, logger: common.logger, baseAccess: common.baseAccess,
    retentionMs: config.SVC_FEED_RETENTION, heartbeatMs: config.SVC_FEED_HEARTBEAT_MS, maxPerPrincipal: config.SVC_FEED_MAX_STREAMS_PER_PRINCIPAL,
    // the cap counts across replicas (realtime.stream_leases); a lease outlives 2 missed heartbeats
    leaseMs: 3 * config.SVC_FEED_HEARTBEAT_MS,
    batchMs: config.SVC_FEED_BATCH_MS,
    batchMaxMs: config.SVC_FEED_BATCH_MAX_MS,
    writesPerSecond: config.SVC_FEED_WRITES_PER_SECOND,
    loadWhere: async (tableId, where) => compileWhere(where, columnMetas(await loadTable({ meta }, tableId))),
  });
  // Open subscriptions here: since a stream's request is done once it is open, tabula_http_requests_in_flight does not count it.
  common.metrics.gauge('tabula_feed_subscriptions', 'Open feed subscriptions in this process (SSE streams and WebSocket subscriptions)', [], (gauge) => { gauge.set(hub.size); });
  return { ...common, config, meta, hub };
}

/** Ends this process's streams and sockets as soon as the server a request came in on starts closing (shutdown). */
function closingWatcher(ports: RealtimePorts): (req: IncomingMessage) => void {
  const watched = new WeakSet<object>();
  return (req) => {
    const server = (req.socket as { server?: EventEmitter }).server;
    if (server && !watched.has(server)) {
      watched.add(server);
      server.once('closing', () => ports.hub.endAll());
    }
  };
}

/**
 * The realtime service: the live change feed (docs/realtime.md). A shared
 * consumer appends record and meta events to the feed log; every replica's
 * hub tails the log and serves its streams; a per-process consumer of auth
 * events ends streams whose access ended.
 */
export const realtimeService = defineService<RealtimeConfig, RealtimePorts>({
  name: 'realtime',
  schema: REALTIME_SCHEMA,
  migrations,
  configSchema: realtimeConfigSchema,
  buildPorts: buildRealtimePorts,
  createApp,
  /**
   * The app's handler, which also ends this process's streams as soon as the server starts closing (shutdown).
   * Its promise (the app done with the request: a stream open) lets the in-process gateway let go of a stream.
   */
  requestHandler(app, ports) {
    const handle = app.callback();
    const watch = closingWatcher(ports);
    return (req, res) => {
      watch(req);
      return handle(req, res);
    };
  },
  /** WebSockets (GET /api/v1/events/ws); their streams end with the others on shutdown. */
  upgradeHandler(_app, ports) {
    const upgrade = socketUpgradeHandler(ports, realtimeAuthorizer(ports));
    const watch = closingWatcher(ports);
    return (req, socket, head) => {
      watch(req);
      upgrade(req, socket, head);
    };
  },
  async start(ports) {
    await ports.hub.start();
    const log = await feedLogConsumer.start(ports);
    const access = await accessConsumer.start(ports);
    return [log, access, { stop: () => ports.hub.stop() }];
  },
});
