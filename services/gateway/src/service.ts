import { identitySigner } from '@tabula/auth';
import { defineService, serviceUrls } from '@tabula/runtime';
import { gatewayConfigSchema, type GatewayConfig } from './config';
import { createApp } from './app';
import { edgeHandler } from './edge-handler';
import { upgradeHandler } from './upgrade-handler';
import type { GatewayPorts } from './ports';
import { Authenticator } from './authenticator';
import { HttpDispatcher, LocalDispatcher } from './dispatcher';
import { authEventsConsumer } from './consumers/auth-events.consumer';

/**
 * The gateway: routing, authentication, CORS, health. In standalone mode it
 * dispatches in-process; in cluster mode it proxies over HTTP.
 */
export const gatewayService = defineService<GatewayConfig, GatewayPorts>({
  name: 'gateway',
  configSchema: gatewayConfigSchema,
  buildPorts(common, config) {
    const dispatcher = common.localHandler
      ? new LocalDispatcher(common.localHandler, common.localUpgrade)
      : new HttpDispatcher(serviceUrls(common.platform), common.logger);
    return {
      ...common, config, dispatcher,
      authenticator: new Authenticator(common.services, config.SVC_AUTH_CACHE_TTL_MS),
      startedAt: Date.now(),
      sign: identitySigner(common.internalSecret),
    };
  },
  createApp,
  requestHandler: edgeHandler,
  upgradeHandler: (_app, ports) => upgradeHandler(ports),
  async start(ports) {
    // Every gateway replica needs every invalidation (per-process delivery).
    const authEvents = await authEventsConsumer.start(ports);
    return [authEvents, { stop: async () => { if (ports.dispatcher instanceof HttpDispatcher) await ports.dispatcher.close(); } }];
  },
});
