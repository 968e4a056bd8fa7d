import pino, { type Logger } from 'pino';
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';

export type { Logger } from 'pino';

/** Paths never written to logs. */
const REDACT = [
  'password', '*.password', 'currentPassword', '*.currentPassword', 'newPassword', '*.newPassword',
  'token', '*.token', 'refresh_token', '*.refresh_token', 'secret', '*.secret', 'config', '*.config',
  'req.headers.authorization', 'req.headers["xc-auth"]', 'req.headers["xc-token"]', 'req.headers.cookie',
  'headers.authorization', 'headers["xc-auth"]', 'headers["xc-token"]', 'headers.cookie', 'headers["x-tabula-identity"]',
];

/** Where request-scoped fields (request id) come from; set by @tabula/http. */
const fieldsStore = new AsyncLocalStorage<Record<string, string>>();

/** The request-scoped fields in effect (the request id of the request being served), if any. */
export function currentLogFields(): Readonly<Record<string, string>> | undefined {
  return fieldsStore.getStore();
}

/**
 * Runs `fn` with extra fields added to every log line written inside it. The
 * process's one AsyncLocalStorage of request scope (the request context of
 * @tabula/http reads it too): on Node 20 each storage costs every promise a
 * propagation step, so there is only this one.
 */
export function withLogFields<T>(fields: Record<string, string>, fn: () => T): T {
  return fieldsStore.run({ ...(fieldsStore.getStore() ?? {}), ...fields }, fn);
}

/**
 * JSON-lines logger: every line carries the service, the request id of the
 * request being served and the active trace/span ids; secrets are redacted.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    // An unknown level is reported by the settings check; pino's own error would hide it.
    level: level in pino.levels.values || level === 'silent' ? level : 'info',
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan()?.spanContext();
      const fields: Record<string, string> = { ...(fieldsStore.getStore() ?? {}) };
      if (span && span.traceId !== '00000000000000000000000000000000') {
        fields.trace_id = span.traceId;
        fields.span_id = span.spanId;
      }
      return fields;
    },
  });
}
