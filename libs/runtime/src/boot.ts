import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { UpgradeHandler } from '@tabula/http';
import { loadConfig } from '@tabula/config';
import { runMigrations } from '@tabula/db';
import { createLogger, createServiceMetrics, logFormatFrom, type ServiceMetrics } from '@tabula/telemetry';
import { instrumentBus, observePools } from './service-metrics';
import type { CommonPorts, ServiceDefinition, Worker } from './service-definition';

/** Ports shared by every service of a process, before they are named per service. */
export type SharedPorts = Omit<CommonPorts, 'service' | 'logger' | 'metrics'>;

/** A service whose app is built; its workers start once every app is registered. */
export interface PreparedService<P extends CommonPorts = CommonPorts> {
  name: CommonPorts['service'];
  app: Koa;
  /** The ports the app and workers run on (tests drive a use case in the process through them). */
  ports: P;
  /** What serves HTTP: the definition's requestHandler, else the app's callback. */
  handler: RequestListener;
  /** The definition's upgradeHandler (WebSockets), if any. */
  upgrade?: UpgradeHandler;
  metrics: ServiceMetrics;
  start(): Promise<Worker[]>;
}

/**
 * Migrates the service's schema, parses its own config, builds its ports and
 * its app. Workers (consumers, relays) are started separately by `start()`.
 */
export async function prepareService<C, P extends CommonPorts>(
  definition: ServiceDefinition<C, P>,
  shared: SharedPorts,
  env: NodeJS.ProcessEnv,
): Promise<PreparedService<P>> {
  const logger = createLogger(definition.name, shared.platform.LOG_LEVEL, logFormatFrom({ LOG_FORMAT: shared.platform.LOG_FORMAT }));
  const metrics = createServiceMetrics(definition.name);
  if (definition.schema) {
    const applied = await runMigrations(shared.db, definition.schema, definition.migrations ?? []);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const config = (definition.configSchema ? loadConfig(definition.configSchema, env) : undefined) as C;
  // Each service counts its own events and sees the pools it uses.
  const bus = instrumentBus(shared.bus, metrics);
  observePools(metrics, shared.dataDb === shared.db ? { meta: shared.db } : { meta: shared.db, data: shared.dataDb });
  const ports = await definition.buildPorts({ ...shared, bus, service: definition.name, logger, metrics }, config);
  const app = definition.createApp(ports);
  return {
    name: definition.name,
    app,
    ports,
    handler: definition.requestHandler ? definition.requestHandler(app, ports) : app.callback(),
    upgrade: definition.upgradeHandler?.(app, ports),
    metrics,
    start: async () => (definition.start ? definition.start(ports) : []),
  };
}

/**
 * Shutdown of the workers: first every worker drains (outbox relays publish
 * their backlog while consumers still run), then they stop in reverse start
 * order. Failures are logged (passed to onError), never thrown.
 */
export async function stopWorkers(workers: Worker[], onError: (err: unknown) => void): Promise<void> {
  for (const worker of workers) {
    try {
      await worker.drain?.();
    } catch (err) {
      onError(err);
    }
  }
  for (const worker of [...workers].reverse()) {
    try {
      await worker.stop();
    } catch (err) {
      onError(err);
    }
  }
}

/** Applies a service's migrations and closes the shared ports (the chart's migration Job). */
export async function migrateOnly<C, P extends CommonPorts>(
  definition: ServiceDefinition<C, P>, shared: SharedPorts & { close(): Promise<void> }, logger: { info(o: object, m: string): void },
): Promise<void> {
  try {
    const applied = definition.schema ? await runMigrations(shared.db, definition.schema, definition.migrations ?? []) : [];
    logger.info({ schema: definition.schema, applied }, 'migrations done (TABULA_MIGRATE_ONLY)');
  } finally {
    await shared.close();
  }
}
