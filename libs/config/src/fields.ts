import { z } from 'zod';

/** Shown in messages: the value as given, cut short (never used for secrets). */
const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 60));

/** A boolean written as text in the environment: true/false/1/0/yes/no. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: (issue) => `must be true or false (or 1/0, yes/no); got ${shown(issue.input)}` })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An integer written as text, with bounds. */
export const envInt = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const message = (value: unknown) => `must be ${range}; got ${shown(value)}`;
  return z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: message(value) });
        return z.NEVER;
      }
      return n;
    });
};

/** A TCP port. */
export const envPort = (fallback: number) => envInt(fallback, 0, 65535);

/** A comma-separated list. */
export const envList = (fallback: string[] = []) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined ? fallback : v.split(',').map((s) => s.trim()).filter(Boolean)));

/** A URL whose scheme is one of `protocols` (e.g. `['postgres', 'postgresql']`). */
export const envUrl = (protocols: string[]) =>
  z.string().superRefine((value, ctx) => {
    let scheme: string | undefined;
    try {
      scheme = new URL(value).protocol.replace(/:$/, '');
    } catch {
      scheme = undefined;
    }
    if (!scheme || !protocols.includes(scheme)) {
      ctx.addIssue({ code: 'custom', message: `must be a ${protocols.map((p) => `${p}://`).join(' or ')} URL` });
    }
  });

/** A comma-separated list of `host:port` addresses (Kafka brokers). */
export const envHostPortList = () =>
  envList().superRefine((list, ctx) => {
    const bad = list.filter((entry) => !/^[A-Za-z0-9.-]+:\d{1,5}$/.test(entry) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(entry));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `each entry must be host:port; got ${bad.map(shown).join(', ')}` });
  });

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)?$/i;
const UNIT_SECONDS: Record<string, number> = { m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_557_600 };

/** Seconds in a duration like `10h`, `7d`, `90m`, `3600` (bare numbers are seconds); undefined when malformed. */
export function parseDurationSeconds(value: string): number | undefined {
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit === 'ms' || unit.startsWith('milli')) return amount / 1000;
  return amount * (UNIT_SECONDS[unit[0]] ?? 1);
}

/**
 * A duration (token lifetimes): `10h`, `7d`, `30m`, `3600` (seconds). Normalised to
 * `<seconds>s`, the form jsonwebtoken reads unambiguously (it reads a bare "3600" as
 * milliseconds). Refuses anything else at start, e.g. `forever`.
 */
export const envDuration = (fallback: string, maxSeconds = 10 * 31_557_600) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const seconds = parseDurationSeconds(value);
      if (seconds === undefined || seconds < 1 || seconds > maxSeconds) {
        ctx.addIssue({ code: 'custom', message: `must be a duration from 1s to ${Math.floor(maxSeconds / 86_400)}d such as 10h, 7d, 30m or 3600 (seconds); got ${shown(value)}` });
        return z.NEVER;
      }
      return `${Math.round(seconds)}s`;
    });

/** Event bus selection shared by every service. */
export const eventBusKind = z
  .enum(['memory', 'redis', 'kafka'], { error: (issue) => `must be memory, redis or kafka; got ${shown(issue.input)}` })
  .default('memory');

/** The log levels pino knows, lowest first. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** Log level for pino. */
export const logLevel = z
  .enum(LOG_LEVELS, { error: (issue) => `must be one of ${LOG_LEVELS.join(', ')}; got ${shown(issue.input)}` })
  .default('info');
