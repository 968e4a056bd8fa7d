import { z } from 'zod';
import { envBoolean, envInt } from '@tabula/config';
import type { EventBusConfig } from '@tabula/events';

const saslMechanisms = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/**
 * The Kafka settings of every service process (EVENT_BUS=kafka; docs/kafka.md
 * lists each). Secrets and PEM files take the usual `<NAME>_FILE` variant.
 */
export const kafkaConfigFields = {
  /** false: the services never create topics; they must exist (KafkaTopic resources, a provisioning job). */
  KAFKA_TOPIC_CREATE: envBoolean(true),
  /** Partitions of each topic the services create: the most replicas of a service that share its events. */
  KAFKA_TOPIC_PARTITIONS: envInt(6, 1, 10_000),
  /** Replication factor of created topics; 0 = 3, or the number of brokers when fewer. */
  KAFKA_TOPIC_REPLICATION_FACTOR: envInt(0, 0, 32),
  /** min.insync.replicas of created topics; 0 = 2 when the replication factor is 3 or more, else 1. */
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS: envInt(0, 0, 32),
  /** retention.ms of created topics; 0 = the broker's default. */
  KAFKA_TOPIC_RETENTION_MS: envInt(0, 0),
  /**
   * A consumer silent this long (a killed replica) loses its partitions to the
   * group's other members; lower means faster takeover, higher tolerates longer pauses.
   * The broker bounds it (group.min/max.session.timeout.ms: 6 s to 30 min by default).
   */
  KAFKA_SESSION_TIMEOUT_MS: envInt(30_000, 1000, 1_800_000),
  /** TLS to the brokers (implied by KAFKA_SSL_CA/CERT/KEY). */
  KAFKA_SSL: envBoolean(false),
  /** PEM of the CA(s) that signed the brokers' certificates; default the system's trusted CAs. */
  KAFKA_SSL_CA: z.string().optional(),
  /** PEM client certificate and key (mutual TLS). */
  KAFKA_SSL_CERT: z.string().optional(),
  KAFKA_SSL_KEY: z.string().optional(),
  /** false accepts any broker certificate (never in production). */
  KAFKA_SSL_REJECT_UNAUTHORIZED: envBoolean(true),
  /** SASL authentication: plain, scram-sha-256 or scram-sha-512; unset = none. */
  KAFKA_SASL_MECHANISM: z.enum(saslMechanisms, { error: `must be one of ${saslMechanisms.join(', ')}` }).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
};

/** The parsed settings (a part of the platform config). */
export const kafkaSettingsSchema = z.object(kafkaConfigFields);
type KafkaSettings = z.infer<typeof kafkaSettingsSchema>;

/** Settings that depend on each other (checked on the raw environment, `_FILE` variants count as set). */
export function kafkaCrossCheck(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '') !== '' || (env[`${name}_FILE`] ?? '') !== '';
  const problems: string[] = [];
  if (set('KAFKA_SASL_MECHANISM')) {
    if (!set('KAFKA_SASL_USERNAME')) problems.push('KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM');
    if (!set('KAFKA_SASL_PASSWORD')) problems.push('KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM');
  }
  if (set('KAFKA_SSL_CERT') !== set('KAFKA_SSL_KEY')) problems.push('KAFKA_SSL_CERT, KAFKA_SSL_KEY: set both (mutual TLS) or neither');
  return problems;
}

/** The bus settings of the parsed Kafka settings. */
export function kafkaBusConfig(settings: KafkaSettings): Pick<EventBusConfig, 'kafka'> {
  const pem = { ca: settings.KAFKA_SSL_CA, cert: settings.KAFKA_SSL_CERT, key: settings.KAFKA_SSL_KEY };
  const tls = settings.KAFKA_SSL || Object.values(pem).some(Boolean);
  return {
    kafka: {
      sessionTimeout: settings.KAFKA_SESSION_TIMEOUT_MS,
      topics: {
        create: settings.KAFKA_TOPIC_CREATE,
        partitions: settings.KAFKA_TOPIC_PARTITIONS,
        replicationFactor: settings.KAFKA_TOPIC_REPLICATION_FACTOR || undefined,
        minInsyncReplicas: settings.KAFKA_TOPIC_MIN_INSYNC_REPLICAS || undefined,
        retentionMs: settings.KAFKA_TOPIC_RETENTION_MS || undefined,
      },
      ...(tls ? { ssl: { ...definedOnly(pem), rejectUnauthorized: settings.KAFKA_SSL_REJECT_UNAUTHORIZED } } : {}),
      ...(settings.KAFKA_SASL_MECHANISM
        ? { sasl: { mechanism: settings.KAFKA_SASL_MECHANISM, username: settings.KAFKA_SASL_USERNAME ?? '', password: settings.KAFKA_SASL_PASSWORD ?? '' } }
        : {}),
    },
  };
}

function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value)) as Partial<Record<keyof T, string>>;
}
