/**
 * What background workers cost single inserts: standalone Tabula several
 * times side by side, each with some services' workers (consumers, relays)
 * not started (BENCH_NO_START, standalone-server.ts), against the minimal
 * floor, in interleaved rounds (this machine's speed drifts within minutes).
 * Prints per round each variant's insert rate, its share of the floor's and
 * its server CPU per request, then the medians. A variant without a
 * service's workers is not a working Tabula (its events wait unconsumed):
 * this measures what the feature costs, nothing to run in production.
 * Needs DATABASE_URL.
 * Usage: npx tsx scripts/bench/workers-cost.ts [--variants "none;realtime;hooks"] [--rounds 5 --seconds 3]
 *   (a variant: comma-separated service names, `none` for all workers running)
 */
import { startFloor, withCpu } from './records-load';
import type { LoadResult } from './load';
import { insertLoad, median, startSeededStandalone, type SeededStandalone } from './seeded-standalone';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const VARIANTS = arg('variants', 'none;realtime;hooks;realtime,hooks,comments').split(';');
const ROUNDS = Number(arg('rounds', '5'));
const MS = Number(arg('seconds', '3')) * 1000;
const CONCURRENCY = 10;

interface Variant extends SeededStandalone { name: string; share: number[]; cpu: number[] }

function inserts(url: string, headers: Record<string, string>, pid: number | undefined): Promise<LoadResult> {
  return withCpu(pid, () => insertLoad('insert', url, headers, CONCURRENCY, MS));
}

async function main(): Promise<void> {
  const variants: Variant[] = [];
  try {
    for (const name of VARIANTS) {
      const side = await startSeededStandalone(`workers_${variants.length}`, { BENCH_NO_START: name === 'none' ? '' : name });
      variants.push(Object.assign(side, { name, share: [], cpu: [] }));
    }
    const floor = await startFloor(variants[0].dbUrl, { main: variants[0].table }, CONCURRENCY);
    try {
      console.log(`insert one, ${CONCURRENCY} connections, ${ROUNDS} interleaved rounds of ${MS / 1000} s; variant = services whose workers do not run`);
      for (let round = 1; round <= ROUNDS; round++) {
        const f = await inserts(`${floor.url}/min/insert`, {}, floor.pid);
        const line = [`round ${round}: floor ${f.rps.toFixed(0)} req/s`];
        for (const v of variants) {
          const r = await inserts(v.recordsUrl, { 'xc-auth': v.token }, v.server.child.pid);
          v.share.push(r.rps / f.rps);
          v.cpu.push(r.cpuUsPerRequest ?? NaN);
          line.push(`${v.name}: ${r.rps.toFixed(0)} req/s ${(100 * r.rps / f.rps).toFixed(0)} % ${r.cpuUsPerRequest?.toFixed(0)} µs`);
        }
        console.log(line.join(' | '));
      }
      for (const v of variants) console.log(`${v.name}: median ${(100 * median(v.share)).toFixed(1)} % of the floor, server CPU ${median(v.cpu).toFixed(0)} µs per insert`);
    } finally {
      await floor.stop();
    }
  } finally {
    for (const v of variants) await v.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
