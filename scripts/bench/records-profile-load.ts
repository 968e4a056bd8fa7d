/**
 * Worker thread of records-profile.ts: generates the load, so the CPU profile
 * of the main thread (the services) holds no load-generator frames.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runLoad, runOps } from './load';
import { sampleBody } from './records-fixture';
import { poster } from './records-load';

const { which, data, headers, concurrency, ms } = workerData as { which: string; data: string; headers: Record<string, string>; concurrency: number; ms: number };

async function main() {
  const bulkUrl = data.replace('/api/v1/db/data/', '/api/v1/db/data/bulk/');
  const batch = Array.from({ length: 1000 }, (_, i) => sampleBody(i));
  const withPoster = async (url: string, body: (i: number) => unknown) => {
    const p = poster(url, headers, concurrency);
    try { return await runOps(which, (i) => p.post(body(i)), concurrency, ms); } finally { await p.close(); }
  };
  switch (which) {
    case 'list': return runLoad('list-25', data, headers, concurrency, ms);
    case 'where': return runLoad('where+sort', `${data}?where=(Score,gt,50000)&sort=-Score`, headers, concurrency, ms);
    case 'read': return runLoad('read', `${data}/4242`, headers, concurrency, ms);
    case 'insert': return withPoster(data, sampleBody);
    case 'bulk': return withPoster(bulkUrl, () => batch);
    default: throw new Error(`unknown scenario ${which}`);
  }
}

main().then((result) => parentPort?.postMessage(result), (err: unknown) => { throw err; });
