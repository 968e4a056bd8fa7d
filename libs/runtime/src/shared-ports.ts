import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, pingDatabase } from '@tabula/db';
import { createEventBus, type EventBus } from '@tabula/events';
import { HttpServiceClient, LocalServiceClient, type ServiceClient, type ServiceName } from '@tabula/http';
import { BaseAccess, identitySigner, servicePrincipal } from '@tabula/auth';
import type { Logger } from '@tabula/telemetry';
import type { PlatformConfig } from './platform-config';
import type { SharedPorts } from './boot';
import { persistentSecret } from './secrets';
import { roleLookupOf } from './role-lookup';
import { kafkaBusConfig } from './kafka-config';
import { topics } from '@tabula/contracts';

/** Where each service listens in cluster mode. */
export function serviceUrls(platform: PlatformConfig): Partial<Record<ServiceName, string>> {
  return {
    auth: platform.AUTH_SERVICE_URL, meta: platform.META_SERVICE_URL, data: platform.DATA_SERVICE_URL,
    comments: platform.COMMENTS_SERVICE_URL, storage: platform.STORAGE_SERVICE_URL,
    integrations: platform.INTEGRATIONS_SERVICE_URL, hooks: platform.HOOKS_SERVICE_URL,
    realtime: platform.REALTIME_SERVICE_URL,
  };
}

export interface SharedPortsInput {
  platform: PlatformConfig;
  databaseUrl: string;
  logger: Logger;
  /** The process's service name (for its own internal calls); 'gateway' in standalone. */
  caller: ServiceName;
  /** Standalone: the in-process client every service shares. */
  local?: LocalServiceClient;
  poolMax?: number;
}

/** Builds the database pools, bus, internal client and secrets of a process. */
export function buildSharedPorts(input: SharedPortsInput): SharedPorts & { close(): Promise<void> } {
  const { platform, logger } = input;
  const internalSecret = platform.SVC_INTERNAL_SECRET ?? randomBytes(48).toString('base64url');
  const jwtSecret = platform.SVC_JWT_SECRET ?? persistentSecret(platform.DATA_DIR, 'jwt-secret');
  const knexOptions = {
    poolMax: input.poolMax ?? platform.DB_POOL_MAX, statementTimeoutMs: platform.DB_STATEMENT_TIMEOUT_MS,
    // pool and driver errors as JSON lines, each kind once per interval (not one stack trace per failed acquire)
    logger, logIntervalMs: platform.READINESS_LOG_INTERVAL_MS,
  };
  const db: Knex = createKnex({ url: input.databaseUrl, ...knexOptions, applicationName: `tabula-${input.caller}` });
  const dataDb: Knex = platform.DATA_DATABASE_URL
    ? createKnex({ url: platform.DATA_DATABASE_URL, ...knexOptions, applicationName: `tabula-${input.caller}-data` })
    : db;
  const bus: EventBus = createEventBus({
    kind: platform.EVENT_BUS, redisUrl: platform.REDIS_URL, kafkaBrokers: platform.KAFKA_BROKERS,
    clientId: `tabula-${input.caller}`, logger, ...kafkaBusConfig(platform),
    namespace: { prefix: platform.EVENT_TOPIC_PREFIX, ephemeralGroupTtlMs: platform.EVENT_EPHEMERAL_GROUP_TTL_MIN * 60_000 },
  });
  const sign = identitySigner(internalSecret);
  let services: ServiceClient;
  let localHandler: SharedPorts['localHandler'];
  let localUpgrade: SharedPorts['localUpgrade'];
  if (input.local) {
    services = input.local;
    const local = input.local;
    localHandler = (name) => local.handlerOf(name);
    localUpgrade = (name) => local.upgradeOf(name);
  } else {
    services = new HttpServiceClient(serviceUrls(platform), () => sign(servicePrincipal(input.caller)));
  }
  return {
    platform, db, dataDb, bus, services, localHandler, localUpgrade, internalSecret, jwtSecret,
    baseAccess: new BaseAccess(roleLookupOf(services)),
    async close() {
      await bus.close();
      if (services instanceof HttpServiceClient) await services.close();
      if (dataDb !== db) await dataDb.destroy();
      await db.destroy();
    },
  };
}

/**
 * Wraps a dependency check so its failures are logged once when it goes down,
 * then at most once per `intervalMs` while it stays down (not once per poll),
 * and once when it is back. One reporter per dependency object: the services
 * of a standalone process share it.
 */
export class DependencyReporter {
  private down = false;
  private since = 0;
  private lastLogged = 0;
  private failures = 0;

  constructor(private readonly name: string, private readonly check: () => Promise<unknown>, private readonly logger: Logger, private readonly intervalMs: number) {}

  async run(): Promise<void> {
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timed out after 2000 ms')), 2000); });
      try { await Promise.race([this.check(), timeout]); } finally { clearTimeout(timer); }
    } catch (err) {
      const now = Date.now();
      this.failures += 1;
      if (!this.down) { this.down = true; this.since = now; }
      if (this.failures === 1 || now - this.lastLogged >= this.intervalMs) {
        this.lastLogged = now;
        this.logger.error({ dependency: this.name, err: (err as Error).message, downForMs: now - this.since, failedChecks: this.failures, logIntervalMs: this.intervalMs },
          `${this.name} unavailable: /readyz and /api/v1/health answer 503 until it is back`);
      }
      throw err;
    }
    if (this.down) {
      this.logger.info({ dependency: this.name, downForMs: Date.now() - this.since, failedChecks: this.failures }, `${this.name} available again`);
      this.down = false;
      this.failures = 0;
    }
  }
}

const reporters = new WeakMap<object, DependencyReporter>();

/** The shared database check (its reporter is kept per pool). */
export function databaseCheck(shared: Pick<SharedPorts, 'db' | 'platform'> & { logger: Logger }): () => Promise<void> {
  let reporter = reporters.get(shared.db);
  if (!reporter) {
    reporter = new DependencyReporter('database', () => pingDatabase(shared.db), shared.logger, shared.platform.READINESS_LOG_INTERVAL_MS);
    reporters.set(shared.db, reporter);
  }
  const found = reporter;
  return () => found.run();
}

/** Readiness checks every service shares. */
export function sharedReadiness(shared: SharedPorts & { logger: Logger }): Record<string, () => Promise<unknown>> {
  return { database: databaseCheck(shared), events: () => shared.bus.ping() };
}

/**
 * Creates every topic of the platform on a bus that needs topics created
 * (Kafka, KAFKA_TOPIC_CREATE), at start-up: no topic is born of the broker's
 * auto-create, and consumers of a topic nobody has published to yet can join.
 */
export async function provisionTopics(bus: EventBus): Promise<void> {
  await bus.ensureTopics?.(Object.values(topics));
}
