import { startTelemetry } from '@tabula/telemetry';

startTelemetry('standalone');

/* Loaded after telemetry so koa/pg/undici are instrumented. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startStandalone, onShutdown } = require('@tabula/runtime') as typeof import('@tabula/runtime');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createLogger } = require('@tabula/telemetry') as typeof import('@tabula/telemetry');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allServices } = require('./services') as typeof import('./services');

/** `npm start`: every service and the gateway in this process on PORT (8080). */
async function main(): Promise<void> {
  const logger = createLogger('standalone', process.env.LOG_LEVEL ?? 'info');
  const started = Date.now();
  const handle = await startStandalone({ definitions: allServices, logger });
  const cpu = process.cpuUsage();
  // ms: start-up after the code loaded; sinceExecMs: since the process started; cpuMs: CPU time used so far.
  const url = `http://localhost:${new URL(handle.url).port}`;
  logger.info({ url, docs: `${url}/api/docs`, ms: Date.now() - started, sinceExecMs: Math.round(process.uptime() * 1000), cpuMs: Math.round((cpu.user + cpu.system) / 1000) },
    `Tabula is running on ${url} (API docs: ${url}/api/docs)`);
  // Under npm (npm start), stop when npm is gone: npm passes SIGTERM only to its shell.
  onShutdown(logger, () => handle.stop(), { watchParent: process.env.npm_lifecycle_event !== undefined });
}

main().catch((err) => {
   
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
