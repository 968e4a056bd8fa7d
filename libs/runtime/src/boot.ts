import type Koa from 'koa';
import { loadConfig } from '@tabula/config';
import { runMigrations } from '@tabula/db';
import { createLogger, createServiceMetrics } from '@tabula/telemetry';
import type { CommonPorts, ServiceDefinition, Worker } from './service-definition';

/** Ports shared by every service of a process, before they are named per service. */
export type SharedPorts = Omit<CommonPorts, 'service' | 'logger' | 'metrics'>;

/** A service whose app is built; its workers start once every app is registered. */
export interface PreparedService {
  name: CommonPorts['service'];
  app: Koa;
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
): Promise<PreparedService> {
  const logger = createLogger(definition.name, shared.platform.LOG_LEVEL);
  const metrics = createServiceMetrics(definition.name);
  if (definition.schema) {
    const applied = await runMigrations(shared.db, definition.schema, definition.migrations ?? []);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const config = (definition.configSchema ? loadConfig(definition.configSchema, env) : undefined) as C;
  const ports = await definition.buildPorts({ ...shared, service: definition.name, logger, metrics }, config);
  const app = definition.createApp(ports);
  return {
    name: definition.name,
    app,
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
