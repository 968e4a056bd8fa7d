import http from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, type AppError } from './app-error';

/**
 * Refuses an HTTP Upgrade (a WebSocket handshake) on its raw socket: the JSON
 * error body every client parses, as a bare HTTP/1.1 response, then the
 * socket closes (there is no ServerResponse on an upgrade).
 */
export function refuseUpgrade(socket: Duplex, error: AppError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorBody(error));
  const reason = http.STATUS_CODES[error.status] ?? 'Error';
  const extra = Object.entries(error.headers ?? {}).map(([name, value]) => `${name}: ${String(value)}\r\n`).join('');
  socket.end(`HTTP/1.1 ${error.status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}
