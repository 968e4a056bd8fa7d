/**
 * Profiles one records call against the data service (standalone, in process):
 * a CPU profile of only the load window, summarised as self time per function.
 * The load comes from a worker thread (records-profile-load.ts), so the
 * profile holds only the services' main thread.
 * Only the services a records call needs run (auth, meta, data, gateway);
 * `--all` runs every service, as `npm start` does (hooks' consumer, the relay…).
 * Prints the load result, the process CPU time per request (user + system,
 * every service of the process included) and the top 30 frames by self time.
 * `--gateway` sends the load through the gateway (xc-auth, as clients do)
 * instead of straight to the data service with a signed identity.
 * Usage: tsx scripts/bench/records-profile.ts [list|where|read|insert|bulk] [--seconds 5 --concurrency 10 --gateway --all --bundled]
 *   (`--bundled` runs the services from an esbuild bundle, as npm start does)
 *   (PROFILE_OUT=file.cpuprofile also writes the profile for Chrome DevTools / speedscope)
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { startStandalone } from '@tabula/runtime';
import { signIdentity } from '@tabula/auth';
import { authService } from '../../services/auth/src/service';
import { metaService } from '../../services/meta/src/service';
import { dataService } from '../../services/data/src/service';
import { gatewayService } from '../../services/gateway/src/service';
import { allServices } from '../services';
import { bundledArgs } from './bundled';
import type { LoadResult } from './load';
import { createTable, dropDatabase, fillTable, freshDatabase, signup } from './records-fixture';
import { summarise, type ProfileNode } from './profile-summary';

const which = process.argv[2] ?? 'read';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ms = arg('seconds', 5) * 1000;
const concurrency = arg('concurrency', 10);

async function main(): Promise<void> {
  const dbUrl = await freshDatabase('profile');
  const handle = await startStandalone({ definitions: process.argv.includes('--all') ? allServices : [authService, metaService, dataService, gatewayService], env: { ...process.env, DATABASE_URL: dbUrl, PORT: '0', LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', DATA_DIR: path.resolve('data/bench') } });
  const server = http.createServer(handle.handlerOf('data'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { token, principal } = await signup(handle.url);
  const headers = { 'x-tabula-identity': signIdentity(principal, handle.platform.SVC_INTERNAL_SECRET as string) };
  const table = await createTable(handle.url, token, 'Profiled');
  await fillTable(dbUrl, table, 100_000);
  const viaGateway = process.argv.includes('--gateway');
  const origin = viaGateway ? handle.url : `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const data = `${origin}/api/v1/db/data/noco/${table.baseId}/${table.title}`;
  const run = () => new Promise<LoadResult>((resolve, reject) => {
    // From the repository root: this file also runs bundled (dist/bench, see --bundled).
    const file = JSON.stringify(path.resolve('scripts', 'bench', 'records-profile-load.ts'));
    const worker = new Worker(`require('tsx/cjs'); require(${file});`, { eval: true, workerData: { which, data, headers: viaGateway ? { 'xc-auth': token } : headers, concurrency, ms } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const faults = process.resourceUsage().minorPageFault;
  const result = await run();
  const used = process.cpuUsage(cpu);
  const faulted = process.resourceUsage().minorPageFault - faults;
  const { profile } = await session.post('Profiler.stop');
  console.log(result);
  const p = profile as { samples: number[]; timeDeltas: number[]; nodes: ProfileNode[] };
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const busyUs = p.samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : p.timeDeltas[i]), 0);
  console.log(`services' main thread, CPU per request: ${(busyUs / 1000 / result.requests).toFixed(3)} ms (process incl. the load worker: ${((used.user + used.system) / 1000 / result.requests).toFixed(3)} ms; minor page faults per request: ${(faulted / result.requests).toFixed(0)})`);
  if (process.env.PROFILE_OUT) (await import('node:fs')).writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  summarise(profile as never, result.requests);
  server.close();
  await handle.stop();
  await dropDatabase(dbUrl);
}

if (process.argv.includes('--bundled') && !process.env.RECORDS_PROFILE_BUNDLED) {
  // Re-run this script from an esbuild bundle (what npm start runs), same arguments.
  const child = spawn(process.execPath, [...bundledArgs('scripts/bench/records-profile.ts'), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, RECORDS_PROFILE_BUNDLED: '1' } });
  child.once('exit', (code) => process.exit(code ?? 1));
} else {
  main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
}
