/**
 * Profiles one records call against the data service (standalone, in process):
 * a CPU profile of only the load window, summarised as self time per function.
 * Only the services a records call needs run (auth, meta, data, gateway).
 * Prints the load result, the process CPU time per request (user + system,
 * every service of the process included) and the top 30 frames by self time.
 * Usage: tsx scripts/bench/records-profile.ts [list|where|read|insert|bulk] [--seconds 5 --concurrency 10]
 *   (PROFILE_OUT=file.cpuprofile also writes the profile for Chrome DevTools / speedscope)
 */
import http from 'node:http';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { startStandalone } from '@tabula/runtime';
import { signIdentity } from '@tabula/auth';
import { authService } from '../../services/auth/src/service';
import { metaService } from '../../services/meta/src/service';
import { dataService } from '../../services/data/src/service';
import { gatewayService } from '../../services/gateway/src/service';
import { runLoad, type LoadResult } from './load';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup } from './records-fixture';
import { poster } from './records-load';
import { runOps } from './load';

const which = process.argv[2] ?? 'read';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ms = arg('seconds', 5) * 1000;
const concurrency = arg('concurrency', 10);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

function summarise(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(`file://${process.cwd()}/`, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i]);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [key, t] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((t / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
}

async function main(): Promise<void> {
  const dbUrl = await freshDatabase('profile');
  const handle = await startStandalone({ definitions: [authService, metaService, dataService, gatewayService], env: { ...process.env, DATABASE_URL: dbUrl, PORT: '0', LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', DATA_DIR: path.resolve('data/bench') } });
  const server = http.createServer(handle.handlerOf('data'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { token, principal } = await signup(handle.url);
  const headers = { 'x-tabula-identity': signIdentity(principal, handle.platform.SVC_INTERNAL_SECRET as string) };
  const table = await createTable(handle.url, token, 'Profiled');
  await fillTable(dbUrl, table, 100_000);
  const data = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/db/data/noco/${table.baseId}/${table.title}`;
  const bulkUrl = data.replace('/api/v1/db/data/', '/api/v1/db/data/bulk/');
  const batch = Array.from({ length: 1000 }, (_, i) => sampleBody(i));
  const run: Record<string, () => Promise<LoadResult>> = {
    list: () => runLoad('list-25', data, headers, concurrency, ms),
    where: () => runLoad('where+sort', `${data}?where=(Score,gt,50000)&sort=-Score`, headers, concurrency, ms),
    read: () => runLoad('read', `${data}/4242`, headers, concurrency, ms),
    insert: () => { const p = poster(data, headers, concurrency); return runOps('insert', (i) => p.post(sampleBody(i)), concurrency, ms); },
    bulk: () => { const p = poster(bulkUrl, headers, concurrency); return runOps('bulk', () => p.post(batch), concurrency, ms); },
  };
  await run[which]();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const result = await run[which]();
  const used = process.cpuUsage(cpu);
  const { profile } = await session.post('Profiler.stop');
  console.log(result);
  console.log(`CPU per request: ${((used.user + used.system) / 1000 / result.requests).toFixed(3)} ms (user ${(used.user / 1000 / result.requests).toFixed(3)}, system ${(used.system / 1000 / result.requests).toFixed(3)})`);
  if (process.env.PROFILE_OUT) (await import('node:fs')).writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  summarise(profile as never);
  server.close();
  await handle.stop();
  await dropDatabase(dbUrl);
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
