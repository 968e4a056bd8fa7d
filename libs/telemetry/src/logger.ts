import pino, { type Logger } from 'pino';
import { isoTime } from './iso-time';
import { context, createContextKey, trace } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { logFormatFrom, prettyStream, type LogDestination, type LogFormat } from './log-format';

export type { Logger } from 'pino';

/** Paths never written to logs. */
const REDACT = [
  'password', '*.password', 'currentPassword', '*.currentPassword', 'newPassword', '*.newPassword',
  'token', '*.token', 'refresh_token', '*.refresh_token', 'secret', '*.secret', 'config', '*.config',
  'req.headers.authorization', 'req.headers["xc-auth"]', 'req.headers["xc-token"]', 'req.headers.cookie',
  'headers.authorization', 'headers["xc-auth"]', 'headers["xc-token"]', 'headers.cookie', 'headers["x-tabula-identity"]',
];

/** Where request-scoped fields (request id) come from without tracing; set by @tabula/http. */
const fieldsStore = new AsyncLocalStorage<Record<string, string>>();

/** The same fields' key in OpenTelemetry's context, while tracing runs. */
const FIELDS_KEY = createContextKey('tabula.logFields');

/** True while OpenTelemetry's context manager (an AsyncLocalStorage of its own) carries the log fields. */
let inTraceContext = false;

/**
 * Keeps the request-scoped log fields in OpenTelemetry's context (`on`, from
 * startTelemetry once the SDK's AsyncLocalStorage context manager runs) or
 * in this module's own AsyncLocalStorage (without tracing). On Node 20 every
 * enabled AsyncLocalStorage costs every promise a propagation step, so the
 * process has one: the trace context's when tracing runs (the fields then
 * travel wherever the trace context does), else this one, never both.
 */
export function keepLogFieldsInTraceContext(on: boolean): void {
  inTraceContext = on;
}

/** The request-scoped fields in effect (the request id of the request being served), if any. */
export function currentLogFields(): Readonly<Record<string, string>> | undefined {
  return inTraceContext ? (context.active().getValue(FIELDS_KEY) as Record<string, string> | undefined) : fieldsStore.getStore();
}

/**
 * Runs `fn` with extra fields added to every log line written inside it. The
 * process's one store of request scope (see keepLogFieldsInTraceContext; the
 * request context of @tabula/http reads it too).
 */
export function withLogFields<T>(fields: Record<string, string>, fn: () => T): T {
  if (inTraceContext) {
    const active = context.active();
    // Object.assign, not spreads: see contextLogFields.
    const merged = Object.assign({}, active.getValue(FIELDS_KEY) as Record<string, string> | undefined, fields);
    return context.with(active.setValue(FIELDS_KEY, merged), fn);
  }
  return fieldsStore.run(Object.assign({}, fieldsStore.getStore(), fields), fn);
}

/**
 * JSON-lines logger: every line carries the service, the request id of the
 * request being served and the active trace/span ids; secrets are redacted.
 */
/** Errors meaning "the database (or another dependency) is unreachable": logged once per interval, not once per poll. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

/** The same, recognised by message when the driver gives no code (pg's connection-level errors). */
const UNREACHABLE_MESSAGE = /ECONNREFUSED|ECONNRESET|database system is (shutting down|starting up)|terminating connection|Connection terminated|connection timeout/i;

/**
 * A pino logMethod hook: a warn/error line whose `err` is an unreachable-dependency
 * error (UNREACHABLE_CODES) is written once per `intervalMs` per message and code,
 * without its stack, with how many were left out since (pollers and relays retry
 * every few hundred ms; each would otherwise write a stack trace per attempt).
 */
function unreachableOncePerInterval(intervalMs: number) {
  const seen = new Map<string, { at: number; suppressed: number }>();
  return function logMethod(this: pino.Logger, args: Parameters<pino.LogFn>, method: pino.LogFn, level: number): void {
    // One `service` per line, the logging process's own: another service a line speaks of is its `target`.
    if (args[0] && typeof args[0] === 'object' && Object.prototype.hasOwnProperty.call(args[0], 'service') && !(args[0] instanceof Error)) {
      const { service, ...rest } = args[0] as Record<string, unknown>;
      args = [{ target: service, ...rest }, ...args.slice(1)] as Parameters<pino.LogFn>;
    }
    const first = args[0] as { err?: { code?: string; message?: string; cause?: { code?: string } } } | undefined;
    const err = level >= 40 && first && typeof first === 'object' ? first.err : undefined;
    const code = err?.code ?? err?.cause?.code ?? (UNREACHABLE_MESSAGE.test(err?.message ?? '') ? 'unreachable' : undefined);
    if (!err || !code || !(UNREACHABLE_CODES.has(code) || code === 'unreachable')) { method.apply(this, args); return; }
    const key = `${level}|${String(args[1] ?? '')}|${code}`;
    const now = Date.now();
    const last = seen.get(key);
    if (last && now - last.at < intervalMs) { last.suppressed += 1; return; }
    seen.set(key, { at: now, suppressed: 0 });
    const fields = { ...first, err: { message: err.message, code }, ...(last ? { suppressedSinceLast: last.suppressed } : {}), logIntervalMs: intervalMs };
    method.apply(this, [fields, ...args.slice(1)] as Parameters<pino.LogFn>);
  };
}

function logIntervalMs(): number {
  const n = Number(process.env.READINESS_LOG_INTERVAL_MS);
  return Number.isInteger(n) && n >= 1000 ? n : 60_000;
}

/**
 * The logger of a process or service: `level` (LOG_LEVEL; `silent` writes
 * nothing), `format` JSON lines or readable lines (LOG_FORMAT; unset: readable
 * on a terminal); `destination` (tests) instead of stdout.
 */
export function createLogger(service: string, level = 'info', format: LogFormat = logFormatFrom(), destination?: LogDestination): Logger {
  const options: pino.LoggerOptions = {
    hooks: { logMethod: unreachableOncePerInterval(logIntervalMs()) },
    // An unknown level is reported by the settings check; pino's own error would hide it.
    level: level in pino.levels.values || level === 'silent' ? level : 'info',
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: contextLogFields,
  };
  const logger = format === 'pretty' ? pino(options, prettyStream(destination)) : pino(options, destination ?? stdoutLines());
  houseLoggers.add(logger);
  return logger;
}

/**
 * The fields every line gets from the request being served: its log fields (request id), then the active trace and span ids.
 * A copy made with Object.assign: in this V8 (Node 20) an object spread followed by new properties
 * (`{ ...a }` then `.trace_id =`, or `{ ...a, b }`) takes a slow path, 1.4 µs here against 0.05 µs
 * (docs/benchmarks.md, fifth pass).
 */
export function contextLogFields(): Record<string, string> {
  const active = inTraceContext ? context.active() : undefined;
  const span = (active ? trace.getSpan(active) : trace.getActiveSpan())?.spanContext();
  const fields: Record<string, string> = Object.assign({}, active ? active.getValue(FIELDS_KEY) as Record<string, string> | undefined : fieldsStore.getStore());
  if (span && span.traceId !== '00000000000000000000000000000000') {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  return fields;
}

/** The loggers made by createLogger: their options (level labels, ISO time, `msg`, the mixin above, no nested key or write hook) are known. */
const houseLoggers = new WeakSet<Logger>();

/** True for a logger made by createLogger (not a child: a child may add serializers, a message prefix or other options). */
export function isHouseLogger(logger: Logger): boolean {
  return houseLoggers.has(logger);
}

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * The process's one JSON-lines destination on stdout, shared by its loggers:
 * lines are written in batches (at 4 KiB, or every 100 ms) rather than one
 * write per line, which under load costs more than making the line. The
 * batches are written on the main thread (`sync`): an asynchronous write
 * hands each batch to a libuv worker thread and back, and those wake-ups
 * cost more than the write itself (a read by id: 237 → 227 µs of server CPU,
 * docs/benchmarks.md, fifth pass). The buffer is flushed when the process
 * exits (also on an uncaught error: pino registers its exit flush only for
 * asynchronous destinations, so this one has its own); a SIGKILL loses at
 * most the last 100 ms of lines. A stalled stdout now holds the event loop
 * where it used to grow the process's memory without bound.
 */
function stdoutLines(): pino.DestinationStream {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 100 } as Parameters<typeof pino.destination>[0]);
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // stdout is gone (a closed pipe): nothing left to write to
      }
    });
    stdout = destination;
  }
  return stdout;
}
