import { createLogger } from '@tabula/telemetry';
import type { CommonPorts, ServiceDefinition } from './service-definition';
import { loadPlatformConfig } from './platform-config';
import { buildSharedPorts } from './shared-ports';
import { prepareService, stopWorkers } from './boot';
import { closeServer, listen, onShutdown } from './lifecycle';
import { ensurePortFree, PortInUseError } from './port-check';
import { startAccessInvalidation } from './access-invalidation';

/**
 * Cluster mode process entry: one service per process (one pod on Kubernetes).
 * Config → ports → migrations → app → listen → workers; drains on SIGTERM.
 */
export async function runServiceProcess<C, P extends CommonPorts>(definition: ServiceDefinition<C, P>): Promise<void> {
  let logger = createLogger(definition.name);
  try {
    const platform = loadPlatformConfig();
    logger = createLogger(definition.name, platform.LOG_LEVEL);
    if (!platform.DATABASE_URL) throw new Error('DATABASE_URL is required');
    await ensurePortFree(platform.PORT, platform.HOST, 'PORT');
    const shared = buildSharedPorts({ platform, databaseUrl: platform.DATABASE_URL, logger, caller: definition.name });
    const prepared = await prepareService(definition, shared, process.env);
    const server = await listen(prepared.app.callback(), platform.PORT, platform.HOST);
    const workers = [await startAccessInvalidation(shared), ...(await prepared.start())];
    const cpu = process.cpuUsage();
    logger.info({ port: platform.PORT, sinceExecMs: Math.round(process.uptime() * 1000), cpuMs: Math.round((cpu.user + cpu.system) / 1000) },
      `${definition.name} service listening`);
    onShutdown(logger, async () => {
      await closeServer(server, platform.SHUTDOWN_TIMEOUT_MS);
      await stopWorkers(workers, (err) => logger.error({ err }, 'worker stop failed'));
      await shared.close();
    }, { watchParent: process.env.TABULA_LAUNCHER === 'cluster' }); // never outlive start:cluster
  } catch (err) {
    logger.fatal({ err: err instanceof Error ? err.message : err }, err instanceof PortInUseError ? err.message : 'failed to start');
    process.exit(1);
  }
}
