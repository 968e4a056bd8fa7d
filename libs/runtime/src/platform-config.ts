import { z } from 'zod';
import { envInt, envPort, envList, eventBusKind, logLevel, loadConfig } from '@tabula/config';

/**
 * Settings every service process shares (README lists each one). Parsed once in
 * the process entry; services receive the parsed value through their ports.
 */
export const platformConfigSchema = z.object({
  /** Run mode: one process for everything, or one process per service. */
  TABULA_MODE: z.enum(['standalone', 'cluster']).default('standalone'),
  /** Port of this process (standalone: the gateway; cluster: this service). */
  PORT: envPort(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Shutdown: how long in-flight requests may take to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_MS: envInt(25_000, 0, 600_000),
  /** Metadata PostgreSQL; standalone without it embeds PostgreSQL under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** PostgreSQL for the user tables of default sources; defaults to DATABASE_URL. */
  DATA_DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DB_POOL_MAX: envInt(10, 1, 500),
  DB_STATEMENT_TIMEOUT_MS: envInt(30_000, 0),
  REDIS_URL: z.string().url().optional(),
  EVENT_BUS: eventBusKind,
  KAFKA_BROKERS: envList(),
  /** Signs the identity the gateway forwards to services (cluster: required). */
  SVC_INTERNAL_SECRET: z.string().min(32).optional(),
  /** Signs user JWTs (cluster: required; standalone: generated under DATA_DIR). */
  SVC_JWT_SECRET: z.string().min(16).optional(),
  SVC_JWT_EXPIRES_IN: z.string().default('10h'),
  LOG_LEVEL: logLevel,
  /** Public URL of Tabula (links in e-mails, attachment URLs). */
  SVC_PUBLIC_URL: z.string().url().optional(),
  /** Cluster: where each service listens (used by the gateway and internal clients). */
  AUTH_SERVICE_URL: z.string().url().optional(),
  META_SERVICE_URL: z.string().url().optional(),
  DATA_SERVICE_URL: z.string().url().optional(),
  COMMENTS_SERVICE_URL: z.string().url().optional(),
  STORAGE_SERVICE_URL: z.string().url().optional(),
  INTEGRATIONS_SERVICE_URL: z.string().url().optional(),
  HOOKS_SERVICE_URL: z.string().url().optional(),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** Parses and cross-checks the platform settings (fails fast with every problem). */
export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const config = loadConfig(platformConfigSchema, env);
  const problems: string[] = [];
  if (config.TABULA_MODE === 'cluster') {
    if (!config.DATABASE_URL) problems.push('DATABASE_URL: required in cluster mode');
    if (!config.SVC_INTERNAL_SECRET) problems.push('SVC_INTERNAL_SECRET: required in cluster mode');
    if (!config.SVC_JWT_SECRET) problems.push('SVC_JWT_SECRET: required in cluster mode');
    if (config.EVENT_BUS === 'memory') problems.push('EVENT_BUS: memory cannot connect separate processes; use redis or kafka');
  }
  if (config.EVENT_BUS === 'redis' && !config.REDIS_URL) problems.push('REDIS_URL: required when EVENT_BUS=redis');
  if (config.EVENT_BUS === 'kafka' && config.KAFKA_BROKERS.length === 0) problems.push('KAFKA_BROKERS: required when EVENT_BUS=kafka');
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return config;
}
