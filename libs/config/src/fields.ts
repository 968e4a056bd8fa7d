import { z } from 'zod';

/** A boolean written as text in the environment: true/false/1/0/yes/no. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An integer written as text, with bounds. */
export const envInt = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** A TCP port. */
export const envPort = (fallback: number) => envInt(fallback, 0, 65535);

/** A comma-separated list. */
export const envList = (fallback: string[] = []) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined ? fallback : v.split(',').map((s) => s.trim()).filter(Boolean)));

/** Event bus selection shared by every service. */
export const eventBusKind = z.enum(['memory', 'redis', 'kafka']).default('memory');

/** Log level for pino. */
export const logLevel = z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info');
