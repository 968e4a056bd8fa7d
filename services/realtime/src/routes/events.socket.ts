import { WebSocketServer } from 'ws';
import { eventsSocket } from '@tabula/contracts';
import { callerKindOf, errors, refuseUpgrade, toAppError, type Authorizer, type UpgradeHandler } from '@tabula/http';
import { IDENTITY_HEADER, identityVerifier, type Principal } from '@tabula/auth';
import type { RealtimePorts } from '../ports';
import { useTicket } from '../domain/tickets';
import { SocketSession } from '../domain/feed-socket';

/** Largest client message (a subscribe with a long `where`). */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * `GET /api/v1/events/ws` (eventsSocket): the WebSocket handshake. The caller
 * is the identity the gateway signed (from `xc-auth`, `xc-token` or Bearer),
 * or, without one, the principal of a single-use `?ticket=` (browsers'
 * WebSocket sends no headers); the contract's callers are admitted, anyone
 * else is refused with the JSON error before the socket opens.
 */
export function socketUpgradeHandler(ports: RealtimePorts, authorizer: Authorizer): UpgradeHandler {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false });
  const verify = identityVerifier(ports.internalSecret);
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://service');
      const path = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
      if (req.method !== 'GET' || path !== eventsSocket.path) throw errors.notFound('ERR_NOT_FOUND', `No WebSocket at ${req.method} ${url.pathname}`);
      const identity = req.headers[IDENTITY_HEADER];
      let principal: Principal | undefined;
      if (typeof identity === 'string' && identity !== '') {
        try {
          principal = verify(identity);
        } catch {
          throw errors.unauthorized();
        }
      } else {
        const ticket = url.searchParams.get('ticket');
        if (ticket) principal = (await useTicket(ports, ticket)).principal;
      }
      if (!principal) throw errors.unauthorized();
      if (!eventsSocket.auth.callers.includes(callerKindOf(principal) as never)) throw errors.forbidden('Forbidden - services call internal endpoints only');
      const caller = principal;
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, (ws) => new SocketSession(ports, authorizer, ws, socket, caller).start());
    })().catch((err: unknown) => refuseUpgrade(socket, toAppError(err, [])));
  };
}
