/**
 * Two builds of standalone Tabula against the minimal floor, interleaved in
 * short rounds (floor, before, after, floor, …): this machine's speed drifts by
 * tens of per cent within minutes, so two bench:records runs one after the
 * other can differ by more than the change being measured. Each build runs
 * from its bundle (`dist/bench/standalone-server.js`: BENCH_AB_BEFORE is
 * another commit's copy; the after side is this tree's, or BENCH_AB_AFTER) at
 * `npm start`'s defaults (access lines, tracing on without an exporter), each
 * on its own database with the same 100,000-row table; the floor is
 * records-floor.ts's minimal one on the before side's database. Prints, per
 * round, req/s and server CPU µs per request of the three, and each build's
 * share of the floor by req/s; then the medians over the rounds.
 * Needs DATABASE_URL.
 * Usage: BENCH_AB_BEFORE=dist/bench/before.js npx tsx scripts/bench/ab-standalone.ts read|list|insert [--rounds 8 --seconds 3 --concurrency 10]
 */
import { startFloor, withCpu, type Floor } from './records-load';
import { runLoad, type LoadResult } from './load';
import { insertLoad, median, startSeededStandalone, type SeededStandalone } from './seeded-standalone';

const which = process.argv[2] ?? 'read';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 8);
const MS = arg('seconds', 3) * 1000;
const CONCURRENCY = arg('concurrency', 10);

function load(label: string, url: string, headers: Record<string, string>): Promise<LoadResult> {
  return which === 'insert' ? insertLoad(label, url, headers, CONCURRENCY, MS) : runLoad(label, url, headers, CONCURRENCY, MS);
}

function sideUrl(side: SeededStandalone): string {
  return which === 'read' ? `${side.recordsUrl}/4242` : side.recordsUrl;
}

const FLOOR_PATH: Record<string, string> = { read: '/min/read/4242', list: '/min/list', insert: '/min/insert' };

async function main(): Promise<void> {
  if (!FLOOR_PATH[which]) throw new Error('scenario: read, list or insert');
  const beforeBundle = process.env.BENCH_AB_BEFORE;
  if (!beforeBundle) throw new Error('BENCH_AB_BEFORE: the before build\'s standalone-server.js bundle');
  const before = await startSeededStandalone('ab_before', {}, beforeBundle);
  const after = await startSeededStandalone('ab_after', {}, process.env.BENCH_AB_AFTER);
  let floor: Floor | undefined;
  try {
    floor = await startFloor(before.dbUrl, { main: before.table }, CONCURRENCY);
    const targets: [string, number | undefined, () => Promise<LoadResult>][] = [
      ['minimal floor', floor.pid, () => load('minimal floor', `${floor!.url}${FLOOR_PATH[which]}`, {})],
      ['before', before.server.child.pid, () => load('before', sideUrl(before), { 'xc-auth': before.token })],
      ['after', after.server.child.pid, () => load('after', sideUrl(after), { 'xc-auth': after.token })],
    ];
    for (const [, , run] of targets) await run(); // warm-up round, not counted
    console.log(`${which}, ${CONCURRENCY} connections, ${ROUNDS} interleaved rounds of ${MS / 1000} s (floor, before, after)`);
    const rows: Record<string, string | number>[] = [];
    const share: Record<string, number[]> = { before: [], after: [] };
    const rps: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      const results: Record<string, LoadResult> = {};
      for (const [name, pid, run] of targets) {
        const r = await withCpu(pid, run);
        if (r.errors) throw new Error(`${name}: ${r.errors} errors`);
        results[name] = r;
        (rps[name] ??= []).push(r.rps);
        if (r.cpuUsPerRequest !== undefined) (cpu[name] ??= []).push(r.cpuUsPerRequest);
      }
      const floorRps = results['minimal floor'].rps;
      for (const name of ['before', 'after']) share[name].push(results[name].rps / floorRps);
      rows.push({
        round, 'floor req/s': Math.round(floorRps),
        'before req/s': Math.round(results.before.rps), 'after req/s': Math.round(results.after.rps),
        'before / floor': `${((results.before.rps / floorRps) * 100).toFixed(0)} %`, 'after / floor': `${((results.after.rps / floorRps) * 100).toFixed(0)} %`,
        'CPU µs/req floor · before · after': ['minimal floor', 'before', 'after'].map((n) => results[n].cpuUsPerRequest?.toFixed(0) ?? '-').join(' · '),
      });
    }
    console.table(rows);
    const wins = share.after.filter((x, i) => x > share.before[i]).length;
    console.log(`medians: floor ${Math.round(median(rps['minimal floor']))} req/s; before ${Math.round(median(rps.before))} req/s = ${(median(share.before) * 100).toFixed(0)} % of the floor; after ${Math.round(median(rps.after))} req/s = ${(median(share.after) * 100).toFixed(0)} % of the floor; after ahead of before in ${wins} of ${ROUNDS} rounds`);
    if (cpu.before && cpu.after) console.log(`server CPU µs per request (medians): floor ${median(cpu['minimal floor']).toFixed(0)}, before ${median(cpu.before).toFixed(0)}, after ${median(cpu.after).toFixed(0)}`);
  } finally {
    await floor?.stop();
    for (const side of [before, after]) await side.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
