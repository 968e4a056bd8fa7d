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
  const service = (process.argv[2] ?? 'auth') as ServiceName;
  const handle = await startStandalone({ definitions: allServices });
  const handler = handle.handlerOf(service);
  if (!handler) throw new Error(`no service ${service}`);
  const direct = http.createServer(handler);
  await new Promise<void>((resolve) => direct.listen(0, '127.0.0.1', resolve));
  const { port } = direct.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ url: handle.url, directUrl: `http://127.0.0.1:${port}`, secret: handle.platform.SVC_INTERNAL_SECRET })}\n`);
  const stop = () => { direct.close(); void handle.stop().then(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => { process.stderr.write(`${String(err)}\n`); process.exit(1); });
