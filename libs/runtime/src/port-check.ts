import net from 'node:net';

/** A port another process already listens on; the message is one line naming the setting. */
export class PortInUseError extends Error {
  constructor(readonly port: number, readonly setting: string) {
    super(`Port ${port} is already in use by another process: stop it or set ${setting} to a free port`);
    this.name = 'PortInUseError';
  }
}

/**
 * Fails at once, before any slow start-up work (embedded PostgreSQL,
 * migrations), when `port` cannot be bound. `setting` names what to change.
 */
export function ensurePortFree(port: number, host: string, setting: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, setting) : err));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
