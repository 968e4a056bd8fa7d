import type { Logger } from 'pino';

const PROBES = /^\/(healthz|readyz|metrics)$/;

/**
 * The access lines' logger of each logger: a child without redaction. An
 * access line holds only flat, known fields (method, route template, status,
 * duration and the request's ids), which no redact path can match, while a
 * logger whose redact paths start with `*` runs the redactor over every field
 * of every line it writes (pino's wildcard stringifier): about a tenth of a
 * cached read's logging cost for nothing.
 */
const accessLoggers = new WeakMap<Logger, Logger>();

function accessLoggerOf(logger: Logger): Logger {
  let child = accessLoggers.get(logger);
  // A child keeps the level it was made with: a new one when the logger's level changed since.
  if (!child || child.level !== logger.level) {
    child = logger.child({}, { redact: [] });
    accessLoggers.set(logger, child);
  }
  return child;
}

/** Writes the access line of an answered request (`started`: process.hrtime.bigint() at its start). */
export function writeAccessLine(logger: Logger, request: { method: string; path: string; route: string; status: number; started: bigint }): void {
  const line = {
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: Math.round(Number(process.hrtime.bigint() - request.started) / 10_000) / 100,
  };
  const access = accessLoggerOf(logger);
  if (PROBES.test(request.path)) access.debug(line, 'request');
  else access.info(line, 'request');
}
