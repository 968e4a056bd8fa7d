import path from 'node:path';
import type http from 'node:http';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@tabula/db';
import { LocalServiceClient, type RequestHandler, type ServiceName } from '@tabula/http';
import { identitySigner, servicePrincipal } from '@tabula/auth';
import { createLogger, logFormatFrom, type Logger, type ServiceMetrics } from '@tabula/telemetry';
import { startMetricsServer } from './metrics-server';
import type { ServiceDefinition, Worker } from './service-definition';
import type { PlatformConfig } from './platform-config';
import { loadSettings } from './settings';
import { buildSharedPorts, provisionTopics } from './shared-ports';
import { prepareService, stopWorkers } from './boot';
import { closeServer, listen } from './lifecycle';
import { ensurePortFree } from './port-check';
import { lockDataDir } from './data-dir-lock';
import { persistentSecret } from './secrets';
import { startAccessInvalidation } from './access-invalidation';

/** A running standalone Tabula. */
export interface StandaloneHandle {
  url: string;
  server: http.Server;
  platform: PlatformConfig;
  /** The in-process handler of a service (benchmarks compare it with the gateway path). */
  handlerOf(service: ServiceName): RequestHandler | undefined;
  stop(): Promise<void>;
}

export interface StandaloneOptions {
  /** The services, gateway last (it dispatches to the others). */
  definitions: ServiceDefinition<any, any>[];
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

async function resolveDatabase(platform: PlatformConfig, logger: Logger): Promise<{ url: string; embedded?: EmbeddedPostgresHandle }> {
  if (platform.DATABASE_URL) return { url: platform.DATABASE_URL };
  const dataDir = path.resolve(platform.DATA_DIR);
  logger.info({ dataDir }, 'DATABASE_URL not set: starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({ dataDir, onLog: (line) => logger.debug({ pg: line.trim() }, 'postgres') });
  return { url: embedded.url, embedded };
}

/**
 * Standalone mode: every service and the gateway in this process, one shared
 * pool, the in-memory bus (unless EVENT_BUS says otherwise), in-process dispatch.
 */
export async function startStandalone(options: StandaloneOptions): Promise<StandaloneHandle> {
  const env = options.env ?? process.env;
  // Every setting of every service is checked before PostgreSQL or a port is touched.
  const loaded = loadSettings(options.definitions, env);
  // Without a logger from the caller, the process's LOG_LEVEL and LOG_FORMAT hold (LOG_LEVEL=silent writes nothing).
  const logger = options.logger ?? createLogger('standalone', loaded.LOG_LEVEL, logFormatFrom(env));
  // One Tabula per DATA_DIR: a second start refuses naming the running one (its pid and port).
  const lock = lockDataDir(loaded.DATA_DIR, loaded.PORT);
  try {
    await ensurePortFree(loaded.PORT, loaded.HOST, 'PORT');
  } catch (err) {
    lock.release();
    throw err;
  }
  // Kept under DATA_DIR: secrets sealed with keys derived from it (hook secrets,
  // source credentials) must still open after a restart.
  const platform: PlatformConfig = { ...loaded, SVC_INTERNAL_SECRET: loaded.SVC_INTERNAL_SECRET ?? persistentSecret(loaded.DATA_DIR, 'internal-secret') };
  let database: Awaited<ReturnType<typeof resolveDatabase>>;
  try {
    database = await resolveDatabase(platform, logger);
  } catch (err) {
    lock.release();
    throw err;
  }
  const sign = identitySigner(platform.SVC_INTERNAL_SECRET as string);
  const local = new LocalServiceClient(() => sign(servicePrincipal('standalone')));
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger, caller: 'gateway', local, poolMax: Math.max(platform.DB_POOL_MAX, 20) });
  const workers: Worker[] = [];
  const preparedMetrics: ServiceMetrics[] = [];
  try {
    await provisionTopics(shared.bus);
    const prepared = [];
    for (const definition of options.definitions) {
      const service = await prepareService(definition, shared, env);
      local.register(service.name, service.handler, service.upgrade);
      prepared.push(service);
      preparedMetrics.push(service.metrics);
    }
    workers.push(await startAccessInvalidation(shared));
    for (const service of prepared) workers.push(...(await service.start()));
  } catch (err) {
    await stopWorkers(workers, () => undefined);
    await shared.close();
    await database.embedded?.stop();
    lock.release();
    throw err;
  }
  const gateway = local.handlerOf('gateway');
  if (!gateway) throw new Error('standalone needs the gateway definition');
  const server = await listen(gateway, platform.PORT, platform.HOST, local.upgradeOf('gateway'));
  const metricsServer = await startMetricsServer(platform, preparedMetrics, logger);
  if (metricsServer) workers.push(metricsServer);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : platform.PORT;
  lock.setPort(port);
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    platform,
    handlerOf: (service) => local.handlerOf(service),
    /** Stop accepting, finish in-flight requests, flush outboxes, stop workers, close pools, stop PostgreSQL. */
    async stop() {
      logger.info({ timeoutMs: platform.SHUTDOWN_TIMEOUT_MS }, 'draining in-flight requests');
      await closeServer(server, platform.SHUTDOWN_TIMEOUT_MS);
      await stopWorkers(workers, (err) => logger.error({ err }, 'worker stop failed'));
      await shared.close();
      await database.embedded?.stop();
      lock.release();
    },
  };
}
