import http from 'node:http';
import type { Logger } from '@tabula/telemetry';
import { stopTelemetry } from '@tabula/telemetry';

/** Listens and resolves with the server once it accepts connections. */
export function listen(handler: http.RequestListener, port: number, host: string): Promise<http.Server> {
  // Node's 16 KiB default refuses (431) a comment count of 1000 long row ids, which the spec allows.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, handler);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** Stops accepting, lets in-flight requests finish (bounded), then closes idle sockets. */
export function closeServer(server: http.Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { server.closeAllConnections(); resolve(); }, graceMs);
    timer.unref();
    server.close(() => { clearTimeout(timer); resolve(); });
    server.closeIdleConnections();
  });
}

/**
 * Runs `drain` once on SIGINT/SIGTERM, then exits. A second signal exits at once.
 */
export function onShutdown(logger: Logger, drain: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    drain()
      .then(() => stopTelemetry())
      .then(() => { logger.info('stopped'); process.exit(0); })
      .catch((err) => { logger.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
