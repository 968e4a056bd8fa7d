import { renderMetrics, type Logger, type ServiceMetrics } from '@tabula/telemetry';
import type { PlatformConfig } from './platform-config';
import type { Worker } from './service-definition';
import { closeServer, listen } from './lifecycle';

/**
 * METRICS_PORT: a listener of its own serving `/metrics` (every service of this
 * process, plus the process metrics) and `/healthz`, so Prometheus can scrape a
 * process whose main port is public (the gateway, standalone) without exposing
 * metrics there. Nothing is started when METRICS_PORT is 0.
 */
export async function startMetricsServer(platform: PlatformConfig, metrics: ServiceMetrics[], logger: Logger): Promise<Worker | undefined> {
  if (!platform.METRICS_PORT) return undefined;
  const server = await listen((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics' && req.method === 'GET') {
      renderMetrics(metrics).then((text) => {
        res.writeHead(200, { 'content-type': metrics[0]?.contentType ?? 'text/plain; version=0.0.4' });
        res.end(text);
      }, (err) => {
        logger.error({ err }, 'metrics rendering failed');
        res.writeHead(500).end();
      });
    } else if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      res.writeHead(404).end();
    }
  }, platform.METRICS_PORT, platform.HOST);
  logger.info({ port: platform.METRICS_PORT }, 'metrics listening');
  return { stop: () => closeServer(server, 2000) };
}
