import { ConfigError } from '@tabula/config';
import { createLogger } from '@tabula/telemetry';
import type { CommonPorts, ServiceDefinition } from './service-definition';
import { loadSettings } from './settings';
import { buildSharedPorts } from './shared-ports';
import { migrateOnly, prepareService, stopWorkers } from './boot';
import { closeServer, listen, onShutdown } from './lifecycle';
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
    const shared = buildSharedPorts({ platform, databaseUrl: platform.DATABASE_URL, logger, caller: definition.name });
    if (process.env.TABULA_MIGRATE_ONLY === 'true') {
      // The Helm chart's pre-install/pre-upgrade Job: migrate this service's schema, then exit.
      await migrateOnly(definition, shared, logger);
      return;
    }
    const prepared = await prepareService(definition, shared, process.env);
    const server = await listen(prepared.app.callback(), platform.PORT, platform.HOST);
    const workers = [await startAccessInvalidation(shared), ...(await prepared.start())];
    const metricsServer = await startMetricsServer(platform, [prepared.metrics], logger);
    if (metricsServer) workers.push(metricsServer);
    logger.info({ port: platform.PORT }, `${definition.name} service listening`);
    onShutdown(logger, async () => {
      await closeServer(server);
      await stopWorkers(workers, (err) => logger.error({ err }, 'worker stop failed'));
      await shared.close();
    });
  } catch (err) {
    if (err instanceof ConfigError) logger.fatal({ problems: err.problems }, err.message);
    else logger.fatal({ err: err instanceof Error ? err.message : err }, 'failed to start');
    process.exit(1);
  }
}
