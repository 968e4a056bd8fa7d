import { z } from 'zod';
import {
  ConfigError, envBoolean, envDuration, envHostPortList, envInt, envList, envPort, envUrl, eventBusKind, logLevel, loadConfig,
} from '@tabula/config';
import { kafkaConfigFields, kafkaCrossCheck } from './kafka-config';

const postgresUrl = envUrl(['postgres', 'postgresql']);
const httpUrl = envUrl(['http', 'https']);
/** One http(s) URL, or several separated by commas (a service's replicas under start:cluster). */
const httpUrls = z.string().superRefine((value, ctx) => {
  const bad = value.split(',').map((url) => url.trim()).filter((url) => !/^https?:$/.test(protocolOf(url)));
  if (bad.length || !value.trim()) ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL, or several separated by commas' });
});
function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/** Shortest key of SVC_ENCRYPTION_KEYS (`openssl rand -base64 32` gives 44 characters). */
export const ENCRYPTION_KEY_MIN_LENGTH = 32;

/** SVC_ENCRYPTION_KEYS: comma-separated keys, newest first; the message never shows a key. */
const encryptionKeys = envList().superRefine((keys, ctx) => {
  keys.forEach((key, i) => {
    if (key.length < ENCRYPTION_KEY_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `each key must be at least ${ENCRYPTION_KEY_MIN_LENGTH} characters; key ${i + 1} of ${keys.length} has ${key.length}` });
    }
  });
  if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'a key is listed twice' });
});

/**
 * Settings every service process shares (docs/configuration.md lists each one). Parsed once in
 * the process entry; services receive the parsed value through their ports.
 */
export const platformConfigSchema = z.object({
  /** Run mode: one process for everything, or one process per service. */
  TABULA_MODE: z.enum(['standalone', 'cluster'], { error: 'must be standalone or cluster' }).default('standalone'),
  /** Port of this process (standalone: the gateway; cluster: this service). */
  PORT: envPort(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Shutdown: how long in-flight requests may take to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_MS: envInt(25_000, 0, 600_000),
  /** Metadata PostgreSQL; standalone without it embeds PostgreSQL under DATA_DIR. */
  DATABASE_URL: postgresUrl.optional(),
  /** PostgreSQL for the user tables of default sources; defaults to DATABASE_URL. */
  DATA_DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().default('./data'),
  DB_POOL_MAX: envInt(10, 1, 500),
  DB_STATEMENT_TIMEOUT_MS: envInt(30_000, 0),
  REDIS_URL: envUrl(['redis', 'rediss']).optional(),
  EVENT_BUS: eventBusKind,
  KAFKA_BROKERS: envHostPortList(),
  /** Topics, TLS and SASL of EVENT_BUS=kafka (kafka-config.ts). */
  ...kafkaConfigFields,
  /** Names this deployment's topics/streams and consumer groups on a shared Redis or Kafka. */
  EVENT_TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be 1-64 letters, digits, - or _ (starting with a letter or digit)').default('tabula'),
  /** An ephemeral consumer group with no consumer activity for this long is destroyed by any live process (minutes). */
  EVENT_EPHEMERAL_GROUP_TTL_MIN: envInt(15, 1, 10_080),
  /** Signs the identity the gateway forwards to services (cluster: required). */
  SVC_INTERNAL_SECRET: z.string().min(32).optional(),
  /**
   * The at-rest key ring, newest first: seals source credentials, hook secrets,
   * integration configs and signs attachment links (cluster: required;
   * standalone: generated once under DATA_DIR/encryption-key). Empty when unset.
   */
  SVC_ENCRYPTION_KEYS: encryptionKeys,
  /** Signs user JWTs (cluster: required; standalone: generated under DATA_DIR). */
  SVC_JWT_SECRET: z.string().min(16).optional(),
  /** Lifetime of user JWTs: 10h, 7d, 30m, 3600 (seconds). */
  SVC_JWT_EXPIRES_IN: envDuration('10h'),
  LOG_LEVEL: logLevel,
  /** `json` (one JSON object per line) or `pretty` (readable lines); unset: pretty on a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: (issue) => `must be json or pretty; got ${JSON.stringify(issue.input)}` }).optional(),
  /** One `info` line per request (method, route template, status, duration, ids). */
  SVC_ACCESS_LOG: envBoolean(true),
  /** Serve `/metrics` on the public gateway port too. */
  SVC_METRICS_PUBLIC: envBoolean(false),
  /** While the database (or another readiness dependency) is down, log it at most once per this many ms. */
  READINESS_LOG_INTERVAL_MS: envInt(60_000, 1_000, 86_400_000),
  /** A separate port serving `/metrics` (and `/healthz`) of every service of this process; 0 = none. */
  METRICS_PORT: envPort(0),
  /** Public URL of Tabula (links in e-mails, attachment URLs). */
  SVC_PUBLIC_URL: httpUrl.optional(),
  /** Cluster: where each service listens (used by the gateway and internal clients); several URLs = its replicas, called in turn. */
  AUTH_SERVICE_URL: httpUrls.optional(),
  META_SERVICE_URL: httpUrls.optional(),
  DATA_SERVICE_URL: httpUrls.optional(),
  COMMENTS_SERVICE_URL: httpUrls.optional(),
  STORAGE_SERVICE_URL: httpUrls.optional(),
  INTEGRATIONS_SERVICE_URL: httpUrls.optional(),
  HOOKS_SERVICE_URL: httpUrls.optional(),
  REALTIME_SERVICE_URL: httpUrls.optional(),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** Settings that depend on each other, checked on the raw values so they add to (not hide behind) format problems. */
function crossCheck(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '') !== '' || (env[`${name}_FILE`] ?? '') !== '';
  const bus = env.EVENT_BUS || 'memory';
  const problems: string[] = [];
  if (env.TABULA_MODE === 'cluster') {
    if (!set('DATABASE_URL')) problems.push('DATABASE_URL: required in cluster mode');
    if (!set('SVC_INTERNAL_SECRET')) problems.push('SVC_INTERNAL_SECRET: required in cluster mode');
    if (!set('SVC_JWT_SECRET')) problems.push('SVC_JWT_SECRET: required in cluster mode');
    if (!set('SVC_ENCRYPTION_KEYS')) problems.push('SVC_ENCRYPTION_KEYS: required in cluster mode (e.g. the output of `openssl rand -base64 32`)');
    if (bus === 'memory') problems.push('EVENT_BUS: memory cannot connect separate processes; use redis or kafka');
  }
  if (bus === 'redis' && !set('REDIS_URL')) problems.push('REDIS_URL: required when EVENT_BUS=redis');
  if (bus === 'kafka' && !set('KAFKA_BROKERS')) problems.push('KAFKA_BROKERS: required when EVENT_BUS=kafka');
  if (bus === 'kafka') problems.push(...kafkaCrossCheck(env));
  return problems;
}

/** Parses and cross-checks the platform settings; a ConfigError lists every problem. */
export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const problems = crossCheck(env);
  let config: PlatformConfig | undefined;
  try {
    config = loadConfig(platformConfigSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.unshift(...err.problems);
  }
  if (problems.length || !config) throw new ConfigError(problems);
  return config;
}
