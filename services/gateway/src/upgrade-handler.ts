import type { IncomingMessage } from 'node:http';
import { CidrList, errors, refuseUpgrade, requestIdFrom, toAppError, type UpgradeHandler } from '@tabula/http';
import type { GatewayPorts } from './ports';
import { matchRoute } from './route-table';
import { applyClientAddress, guardPath } from './edge.middleware';
import { admit, type DispatchDeps } from './dispatch.middleware';

/**
 * The gateway's `upgrade` listener: an HTTP Upgrade (a WebSocket handshake)
 * goes to the service of a contract declaring `transport: 'websocket'` on
 * that path, after the same checks as a request (path guard, client
 * address, authentication by the contract, the signed identity in place of
 * any client-sent one). Anything else is refused with a JSON error on the
 * socket (404 for a path without a WebSocket contract, 401 without credentials).
 */
export function upgradeHandler(ports: GatewayPorts): UpgradeHandler {
  const trusted = new CidrList(ports.config.SVC_TRUSTED_PROXIES);
  const deps: DispatchDeps = { authenticator: ports.authenticator, dispatcher: ports.dispatcher, sign: ports.sign, config: ports.config };
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const requestId = requestIdFrom(headerOf(req, 'x-request-id'));
    void (async () => {
      const url = req.url ?? '/';
      const path = url.split('?')[0];
      guardPath(req, path);
      const rule = req.method === 'GET' ? matchRoute('GET', path) : undefined;
      if (!rule?.endpoint || rule.endpoint.transport !== 'websocket') throw errors.notFound('ERR_NOT_FOUND', `No WebSocket at ${req.method} ${path}`);
      const ip = applyClientAddress(req, trusted);
      await admit(deps, req, rule, { path, requestId, ip });
      if (socket.destroyed) return;
      ports.dispatcher.upgrade(rule.service, req, socket, head);
    })().catch((err: unknown) => {
      const error = toAppError(err, []);
      if (error.status >= 500) ports.logger.error({ err, request_id: requestId }, 'upgrade failed');
      refuseUpgrade(socket, error);
    });
  };
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
