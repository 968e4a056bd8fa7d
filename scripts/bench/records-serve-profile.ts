/**
 * Where a records call's server CPU goes, at `npm start`'s defaults (an access
 * line per request, tracing on without an exporter; `--quiet`: neither): the
 * standalone server runs bundled in its own process (standalone-server.ts),
 * a load runs through the gateway, and the server's CPU per request (every
 * thread, /proc schedstat) is printed beside the minimal floor's
 * (records-floor.ts), in `--rounds` alternated rounds (medians), then with
 * `--profile` the server main thread's CPU profile over one more load
 * window (self time per package and per frame, µs per request) and, with
 * `--strace`, the system calls per request of both processes (strace -c -f).
 * With `--perf`, the main threads' on-CPU time by cause from `perf record -e cpu-clock`
 * (perf-causes.ts: no time waiting for a CPU counted, kernel time included).
 * Usage: tsx scripts/bench/records-serve-profile.ts [list|read|insert] [--seconds 5 --concurrency 10 --rounds 3 --quiet --profile --perf --strace --direct]
 *   (`--direct`: straight to the data service with a signed identity, no gateway; PROFILE_OUT=file writes the profile)
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { signIdentity } from '@tabula/auth';
import { runLoad, runOps, type LoadResult } from './load';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup } from './records-fixture';
import { poster, startFloor, withCpu } from './records-load';
import { startStandaloneChild } from './standalone-child';
import { byCause, summarise, type CpuProfile } from './profile-summary';
import { perfCauses } from './perf-causes';

const which = process.argv[2] ?? 'read';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const ms = arg('seconds', 5) * 1000;
const concurrency = arg('concurrency', 10);
const logging: NodeJS.ProcessEnv = flag('quiet') ? { LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true' } : { LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'false' };

/** One load of the scenario on `url` (a records collection URL or the floor's minimal route). */
async function load(label: string, url: string, headers: Record<string, string>): Promise<LoadResult> {
  if (which !== 'insert') return runLoad(label, which === 'read' ? `${url}/4242` : url, headers, concurrency, ms);
  const p = poster(url, headers, concurrency);
  try { return await runOps(label, (i) => p.post(sampleBody(i)), concurrency, ms); } finally { await p.close(); }
}

/** CPU time (ns) of each thread of a process, by thread name (its tasks' `comm` and `schedstat`). */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]));
    } catch { /* the thread ended */ }
  }
  return byName;
}

/** Runs `run` and prints the CPU µs per request of each thread (by name) of process `pid` meanwhile (`mainUs`: the main thread's). */
async function byThread(pid: number, run: () => Promise<LoadResult>): Promise<LoadResult & { mainUs?: number }> {
  const before = threadCpu(pid);
  const result = await run();
  const after = threadCpu(pid);
  const line = [...after].map(([name, ns]) => [name, (ns - (before.get(name) ?? 0)) / 1000 / result.requests] as const)
    .filter(([, us]) => us >= 1).sort((a, b) => b[1] - a[1]).map(([name, us]) => `${name} ${us.toFixed(0)}`);
  console.log(`${result.label}: CPU µs per request by thread: ${line.join(', ')}`);
  const main = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  return { ...result, mainUs: ((after.get(main) ?? 0) - (before.get(main) ?? 0)) / 1000 / result.requests };
}

/** The run of median server CPU per request. */
function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => (a.cpuUsPerRequest ?? 0) - (b.cpuUsPerRequest ?? 0))[Math.floor(runs.length / 2)];
}

const pct = (floor: LoadResult, ours: LoadResult) => `${((floor.cpuUsPerRequest! / ours.cpuUsPerRequest!) * 100).toFixed(0)} %`;

/** System calls per request of process `pid` while `run` loads it (strace -c -f). */
async function syscalls(pid: number | undefined, run: () => Promise<LoadResult>): Promise<void> {
  if (!pid) return;
  const out = `/tmp/records-strace-${pid}.txt`;
  const tracer = spawn('strace', ['-c', '-f', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const result = await run();
  await new Promise((r) => { tracer.once('exit', r); tracer.kill('SIGINT'); });
  console.log(`\n${result.label}: system calls per request (${result.requests} requests under strace)`);
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (m && Number(m[1]) / result.requests >= 0.05) console.log(`  ${m[2].padEnd(16)} ${(Number(m[1]) / result.requests).toFixed(2)}`);
  }
}

async function main(): Promise<void> {
  const dbUrl = await freshDatabase('serve_profile');
  // A folder of its own: one Tabula per DATA_DIR, and other benchmarks may be running.
  const dataDir = path.resolve(`data/bench-serve-${process.pid}`);
  // --perf: JIT code symbolised for perf (/tmp/perf-<pid>.map), in the servers only.
  const perfMap: NodeJS.ProcessEnv = flag('perf') ? { NODE_OPTIONS: '--perf-basic-prof' } : {};
  const server = await startStandaloneChild({ ...logging, ...process.env, ...perfMap, BENCH_PROFILE: 'true', DATABASE_URL: dbUrl, DATA_DIR: dataDir }, 'data');
  try {
    const { token, principal } = await signup(server.url);
    const table = await createTable(server.url, token, 'Profiled');
    await fillTable(dbUrl, table, 100_000);
    const floor = await startFloor(dbUrl, { main: table }, concurrency, { BENCH_PROFILE: 'true', ...perfMap } as Record<string, string>);
    const direct = flag('direct');
    const origin = direct ? server.directUrl : server.url;
    const url = `${origin}/api/v1/db/data/noco/${table.baseId}/${table.title}`;
    const headers = (): Record<string, string> => (direct ? { 'x-tabula-identity': signIdentity(principal, server.secret) } : { 'xc-auth': token });
    const minimal = `${floor.url}/min/${which}`;
    await load('warm-up', url, headers());
    await load('warm-up', minimal, {});
    // Alternated rounds (this machine's speed drifts): each round's CPU ratio, then the medians.
    const floorRuns: LoadResult[] = [];
    const ourRuns: LoadResult[] = [];
    const label = direct ? 'data service directly' : 'through the gateway';
    for (let round = 0; round < arg('rounds', 3); round++) {
      floorRuns.push(await withCpu(floor.pid, () => byThread(floor.pid!, () => load('minimal floor', minimal, {}))));
      ourRuns.push(await withCpu(server.child.pid, () => byThread(server.child.pid!, () => load(label, url, headers()))));
      console.log(`round ${round + 1}: CPU minimal floor / Tabula = ${pct(floorRuns[round], ourRuns[round])}`);
    }
    const [floorRun, ours] = [median(floorRuns), median(ourRuns)];
    for (const r of [floorRun, ours]) console.log(`${r.label}: ${Math.round(r.rps)} req/s, server CPU ${r.cpuUsPerRequest?.toFixed(0)} µs per request (median), errors ${r.errors}`);
    console.log(`CPU: minimal floor / Tabula = ${pct(floorRun, ours)} (medians)`);
    if (flag('profile')) {
      // The profiler's own thread (v8:ProfEvntProc) adds to the process's CPU: the figures above are taken without it.
      const profiled = async (name: string, origin: string, pid: number, run: () => Promise<LoadResult>) => {
        await fetch(`${origin}/__bench/profile?start`);
        const result = await byThread(pid, run);
        const profile = await (await fetch(`${origin}/__bench/profile`)).json() as CpuProfile;
        if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}.${name}.cpuprofile`, JSON.stringify(profile));
        console.log(`\n${name}: ${Math.round(result.rps)} req/s under the profiler`);
        return { profile, result };
      };
      const theirs = await profiled('minimal-floor', floor.url, floor.pid!, () => load('minimal floor', minimal, {}));
      const mine = await profiled('tabula', server.directUrl, server.child.pid!, () => load(label, url, headers()));
      summarise(mine.profile, mine.result.requests, arg('top', 40));
      byCause(theirs.profile, theirs.result.requests, 'the minimal floor', theirs.result.mainUs);
      byCause(mine.profile, mine.result.requests, 'Tabula', mine.result.mainUs);
    }
    if (flag('perf')) {
      // On-CPU time only (perf's cpu-clock), kernel included: unlike the V8 profile's samples, no time spent waiting for a CPU.
      const theirs = await perfCauses(floor.pid!, () => load('minimal floor', minimal, {}));
      const mine = await perfCauses(server.child.pid!, () => load(label, url, headers()));
      const causes = [...new Set([...mine.causes.keys(), ...theirs.causes.keys()])].sort((a, b) => (mine.causes.get(b) ?? 0) - (mine.causes.get(a) ?? 0));
      console.log(`\nmain thread's CPU µs per request by cause (perf record -e cpu-clock; ${theirs.result.requests} and ${mine.result.requests} requests):`);
      console.table(causes.map((cause) => ({ cause, 'minimal floor': (theirs.causes.get(cause) ?? 0).toFixed(0), Tabula: (mine.causes.get(cause) ?? 0).toFixed(0) }))
        .concat([{ cause: 'total', 'minimal floor': theirs.totalUs.toFixed(0), Tabula: mine.totalUs.toFixed(0) }]));
    }
    if (flag('strace')) {
      await syscalls(floor.pid, () => load('minimal floor', minimal, {}));
      await syscalls(server.child.pid, () => load('Tabula', url, headers()));
    }
    await floor.stop();
  } finally {
    await server.stop();
    await dropDatabase(dbUrl);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
