import pino, { type Logger } from 'pino';
import { contextLogFields, isHouseLogger } from './logger';

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

const { lsCacheSym, chindingsSym, timeSym, streamSym, endSym, needsMetadataGsym, hooksSym } = pino.symbols;

/**
 * The access line as pino writes it, made without pino's per-line work (the
 * logMethod hook, which changes nothing on a line without `service` or `err`;
 * the mixin merge; the generic serializer walk): `{"level":…` and `,"time":…`
 * from the logger's own caches and clock, its bindings, the mixin's fields
 * (contextLogFields) then the line's, `,"msg":"request"` and the line end,
 * written to the logger's own stream. Only for loggers made by createLogger
 * whose stream needs no metadata (not a multistream) and that have no write
 * hook; any other logger writes it through pino. The bytes are pino's
 * (logger.test.ts compares both).
 */
function writeDirect(logger: Logger, level: number, line: Record<string, string | number>): boolean {
  if (!isHouseLogger(logger)) return false;
  // The pino internals the line is made of (pino.symbols: the pieces pino's own line is made of).
  const parts = logger as unknown as Record<symbol, unknown>;
  const stream = parts[streamSym] as { write(line: string): unknown } & Record<symbol, unknown>;
  if (stream[needsMetadataGsym] === true || (parts[hooksSym] as { streamWrite?: unknown }).streamWrite) return false;
  const head = (parts[lsCacheSym] as Record<number, string | undefined>)[level];
  if (head === undefined) return false;
  // pino merges the line into the mixin's fields (Object.assign: the mixin's keys first, a line's value replacing a mixin's): the same order, without the merge's cost.
  const mixed = contextLogFields();
  let text = head + (parts[timeSym] as () => string)() + (parts[chindingsSym] as string);
  for (const key in mixed) {
    if (Object.prototype.hasOwnProperty.call(line, key)) text += field(key, line[key]);
    else if (mixed[key] !== undefined) text += field(key, mixed[key]);
  }
  for (const key in line) if (!Object.prototype.hasOwnProperty.call(mixed, key)) text += field(key, line[key]);
  stream.write(`${text},"msg":"request"${parts[endSym] as string}`);
  return true;
}

/** `,"key":value` as pino writes a string or number property. */
function field(key: string, value: string | number | undefined): string {
  if (value === undefined) return '';
  return `,${JSON.stringify(key)}:${typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'null') : JSON.stringify(value)}`;
}

/** Writes the access line of an answered request (`started`: process.hrtime.bigint() at its start). */
export function writeAccessLine(logger: Logger, request: { method: string; path: string; route: string; status: number; started: bigint }): void {
  const line = {
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: Math.round(Number(process.hrtime.bigint() - request.started) / 10_000) / 100,
  };
  const probe = PROBES.test(request.path);
  if (!logger.isLevelEnabled(probe ? 'debug' : 'info')) return;
  if (writeDirect(logger, probe ? 20 : 30, line)) return;
  const access = accessLoggerOf(logger);
  if (probe) access.debug(line, 'request');
  else access.info(line, 'request');
}
