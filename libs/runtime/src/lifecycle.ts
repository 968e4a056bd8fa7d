import http from 'node:http';
import type { UpgradeHandler } from '@tabula/http';
import type { Logger } from '@tabula/telemetry';
import { stopTelemetry, tracedListener } from '@tabula/telemetry';

/** Listens and resolves with the server once it accepts connections. `upgrade`: its WebSocket handshakes (none: refused). */
export function listen(handler: http.RequestListener, port: number, host: string, upgrade?: UpgradeHandler): Promise<http.Server> {
  // Node's 16 KiB default refuses (431) a comment count of 1000 long row ids, which the spec allows.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, tracedListener(handler));
  if (upgrade) server.on('upgrade', upgrade);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Stops accepting (new connections are refused), lets in-flight requests
 * finish within `graceMs`, closing each kept-alive connection once idle; past
 * the deadline the remaining connections are cut.
 */
export function closeServer(server: http.Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    // Long-lived responses (the realtime service's streams) end themselves on this, so they do not hold the close until the deadline.
    server.emit('closing');
    // A request still arriving on a kept-alive connection is answered, then that connection closes.
    server.on('request', (_req, res: http.ServerResponse) => res.setHeader('connection', 'close'));
    const timer = setTimeout(() => { server.closeAllConnections(); resolve(); }, graceMs);
    timer.unref();
    server.close(() => { clearTimeout(timer); resolve(); });
    server.closeIdleConnections();
  });
}

export interface ShutdownOptions {
  /**
   * Also drain when the parent process dies: cluster children never outlive the
   * launcher, and `npm start` stops when npm is sent SIGTERM (npm passes it to
   * its shell, which dies without passing it on).
   */
  watchParent?: boolean;
}

/** Starts `onGone` once our parent process has gone (we were re-parented). */
function watchParent(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) { clearInterval(timer); onGone(); }
  }, 500);
  timer.unref();
}

/**
 * Runs `drain` once on SIGINT/SIGTERM (or parent death), logs "stopped" and
 * exits 0. The same signal twice within a second counts once (a terminal's
 * Ctrl-C reaches both npm and us, and npm forwards it); a later second signal
 * exits at once with 1.
 */
export function onShutdown(logger: Logger, drain: () => Promise<void>, options: ShutdownOptions = {}): void {
  let firstAt = 0;
  const handle = (signal: NodeJS.Signals | 'parent-exit') => {
    if (firstAt) {
      if (signal === 'parent-exit' || Date.now() - firstAt < 1000) return;
      logger.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    firstAt = Date.now();
    logger.info({ signal }, 'shutting down');
    drain()
      .then(() => stopTelemetry())
      .then(() => { logger.info('stopped'); process.exit(0); })
      .catch((err) => { logger.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  if (options.watchParent) watchParent(() => handle('parent-exit'));
}
