import type { Logger } from 'pino';

const PROBES = /^\/(healthz|readyz|metrics)$/;

/** Writes the access line of an answered request (`started`: process.hrtime.bigint() at its start). */
export function writeAccessLine(logger: Logger, request: { method: string; path: string; route: string; status: number; started: bigint }): void {
  const line = {
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: Math.round(Number(process.hrtime.bigint() - request.started) / 10_000) / 100,
  };
  if (PROBES.test(request.path)) logger.debug(line, 'request');
  else logger.info(line, 'request');
}
