import { ConfigError } from '@tabula/config';
import { createLogger } from '@tabula/telemetry';
import type { Server } from 'node:http';
import type { CommonPorts, ServiceDefinition, Worker } from './service-definition';
import { loadSettings } from './settings';
import { buildSharedPorts, provisionTopics } from './shared-ports';
import { migrateOnly, prepareService, stopWorkers } from './boot';
import { closeServer, listen, onShutdown } from './lifecycle';
import { ensurePortFree, PortInUseError } from './port-check';
import { startAccessInvalidation } from './access-invalidation';
import { startMetricsServer } from './metrics-server';

/**
 * Cluster mode process entry: one service per process (one pod on Kubernetes).
 * Config → ports → migrations → app → listen → workers; drains on SIGTERM.
 */
export async function runServiceProcess<C, P extends CommonPorts>(definition: ServiceDefinition<C, P>): Promise<void> {
  let logger = createLogger(definition.name);
  try {
    const platform = loadSettings([definition]);
    logger = createLogger(definition.name, platform.LOG_LEVEL);
    if (!platform.DATABASE_URL) throw new Error('DATABASE_URL is required');
    if (process.env.TABULA_MIGRATE_ONLY === 'true') {
      // The Helm chart's pre-install/pre-upgrade Job: migrate this service's schema, then exit.
      await migrateOnly(definition, buildSharedPorts({ platform, databaseUrl: platform.DATABASE_URL, logger, caller: definition.name }), logger);
      return;
    }
    if (process.env.TABULA_PROVISION_TOPICS_ONLY === 'true') {
      // The Helm chart's topics Job: create the missing Kafka topics with the KAFKA_TOPIC_* settings, then exit.
      const shared = buildSharedPorts({ platform: { ...platform, KAFKA_TOPIC_CREATE: true }, databaseUrl: platform.DATABASE_URL, logger, caller: definition.name });
      try {
        await provisionTopics(shared.bus);
        logger.info({ bus: platform.EVENT_BUS, prefix: platform.EVENT_TOPIC_PREFIX }, 'topics provisioned (TABULA_PROVISION_TOPICS_ONLY)');
      } finally {
        await shared.close();
      }
      return;
    }
    await ensurePortFree(platform.PORT, platform.HOST, 'PORT');
    const shared = buildSharedPorts({ platform, databaseUrl: platform.DATABASE_URL, logger, caller: definition.name });
    let server: Server | undefined;
    const workers: Worker[] = [];
    let startup: Promise<void> = Promise.resolve();
    // Registered before anything starts: a SIGTERM during start-up (migrations, or after `listen` while the
    // workers start, when /healthz already answers) lets start-up finish, then drains what started and exits 0,
    // instead of Node's default of dying on the signal.
    onShutdown(logger, async () => {
      await startup.catch(() => undefined);
      if (server) await closeServer(server, platform.SHUTDOWN_TIMEOUT_MS);
      await stopWorkers(workers, (err) => logger.error({ err }, 'worker stop failed'));
      await shared.close();
    }, { watchParent: process.env.TABULA_LAUNCHER === 'cluster' }); // never outlive start:cluster
    startup = (async () => {
      await provisionTopics(shared.bus);
      const prepared = await prepareService(definition, shared, process.env);
      server = await listen(prepared.handler, platform.PORT, platform.HOST, prepared.upgrade);
      workers.push(await startAccessInvalidation(shared), ...(await prepared.start()));
      const metricsServer = await startMetricsServer(platform, [prepared.metrics], logger);
      if (metricsServer) workers.push(metricsServer);
      const cpu = process.cpuUsage();
      logger.info({ port: platform.PORT, sinceExecMs: Math.round(process.uptime() * 1000), cpuMs: Math.round((cpu.user + cpu.system) / 1000) },
        `${definition.name} service listening`);
    })();
    await startup;
  } catch (err) {
    if (err instanceof ConfigError) logger.fatal({ problems: err.problems }, err.message);
    else logger.fatal({ err: err instanceof Error ? err.message : err }, err instanceof PortInUseError ? err.message : 'failed to start');
    process.exit(1);
  }
}
