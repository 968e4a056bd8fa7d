/**
 * Benchmark helper: starts standalone Tabula in this process and additionally
 * exposes one service's in-process handler on its own port, so the load
 * generator (another process) can compare the gateway path with the direct one.
 * Prints one JSON line `{ url, directUrl, secret }` when ready.
 */
import http from 'node:http';
import { startStandalone } from '@tabula/runtime';
import type { ServiceName } from '@tabula/http';
import { allServices } from '../services';

async function main(): Promise<void> {
  // One service, or several comma-separated (`auth,data`): each gets a port; directUrl is the first.
  const services = (process.argv[2] ?? 'auth').split(',') as ServiceName[];
  const handle = await startStandalone({ definitions: allServices });
  const servers: http.Server[] = [];
  const directUrls: Record<string, string> = {};
  for (const service of services) {
    const handler = handle.handlerOf(service);
    if (!handler) throw new Error(`no service ${service}`);
    const direct = http.createServer(handler);
    await new Promise<void>((resolve) => direct.listen(0, '127.0.0.1', resolve));
    servers.push(direct);
    directUrls[service] = `http://127.0.0.1:${(direct.address() as { port: number }).port}`;
  }
  const directUrl = directUrls[services[0]];
  process.stdout.write(`${JSON.stringify({ url: handle.url, directUrl, directUrls, secret: handle.platform.SVC_INTERNAL_SECRET })}\n`);
  const stop = () => { for (const s of servers) s.close(); void handle.stop().then(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => { process.stderr.write(`${String(err)}\n`); process.exit(1); });
