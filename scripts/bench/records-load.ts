import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { Pool } from 'pg';
import type { LoadResult } from './load';
import { bundledArgs } from './bundled';
import { floorSql, type FloorTable } from './records-floor-sql';
import { sampleBody } from './records-fixture';

/** A POST of JSON to a loopback URL; non-2xx answers throw (counted as errors). */
export function poster(url: string, headers: Record<string, string>, concurrency: number): { post: (body: unknown) => Promise<void>; close: () => Promise<void> } {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('benchmarks only target loopback');
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  // The first failure is printed (the load runner only counts errors).
  let reported = false;
  return {
    post: async (body) => {
      const res = await request(target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), dispatcher: agent });
      if (res.statusCode >= 400) {
        const text = await res.body.text();
        if (!reported) { reported = true; console.error(`POST ${target.pathname}: ${res.statusCode} ${text.slice(0, 300)}`); }
        throw new Error(`status ${res.statusCode}`);
      }
      await res.body.dump();
    },
    close: () => agent.close(),
  };
}

/** The SQL the data service runs for each benchmarked call, straight through `pg` (in the bench process). */
export function rawQueries(pool: Pool, t: FloorTable) {
  const sql = floorSql(t);
  return {
    list: () => pool.query(sql.list),
    whereSort: (min: number) => pool.query(sql.whereSort, [min]),
    /** The filtered sorted first page and its bounded exact count (what `count=exact` costs). */
    pageAndCount: (min: number, limit: number) => Promise.all([pool.query(sql.whereSort, [min]), pool.query(sql.boundedCount, [min, limit])]),
    read: (id: number) => pool.query(sql.read, [id]),
    insertOne: (i: number) => pool.query(sql.insertOne, sql.insertValues(sampleBody(i))),
    bulk: (i: number, size: number) => pool.query(sql.bulk, sql.bulkValues(Array.from({ length: size }, (_, k) => sampleBody(i * size + k)))),
  };
}

/** A bench server (the floors) running in its own process. */
export interface Floor {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts the floor server as a child process on the tables given; resolves once it listens. */
export function startFloor(dbUrl: string, tables: { main: FloorTable; million?: FloorTable; countLimit?: number }, poolSize: number, env: Record<string, string> = {}): Promise<Floor> {
  return startBenchServer('scripts/bench/records-floor.ts', [JSON.stringify(tables)], { ...env, FLOOR_DB_URL: dbUrl, FLOOR_POOL: String(poolSize) });
}

/**
 * Starts a bench server (`entry`, bundled like the shipped services) as a
 * child process; resolves once it prints its `{ url }` line.
 */
export async function startBenchServer(entry: string, args: string[], env: Record<string, string>): Promise<Floor> {
  const child: ChildProcess = spawn(process.execPath, [...bundledArgs(entry), ...args], {
    env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code})`)));
  });
  return {
    url: (JSON.parse(line) as { url: string }).url,
    pid: child.pid,
    stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}

/** CPU time (ns) a process has used so far, every thread (its tasks' `schedstat`); undefined off Linux. */
export function cpuNs(pid: number | undefined): bigint | undefined {
  if (!pid) return undefined;
  try {
    let total = 0n;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      total += BigInt(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return total;
  } catch {
    return undefined;
  }
}

/**
 * Runs a load against a server process and adds the process's CPU time per
 * request: a figure that, unlike req/s, hardly moves with what else the
 * machine runs (the runs' req/s drift by tens of % on a busy machine).
 */
export async function withCpu(pid: number | undefined, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = cpuNs(pid);
  const result = await run();
  const after = cpuNs(pid);
  if (before === undefined || after === undefined || !result.requests) return result;
  return { ...result, cpuUsPerRequest: Number(after - before) / 1000 / result.requests };
}

/**
 * Prints results with two ratios: to raw `pg` (same SQL in the bench process)
 * and to the floor (a bare node:http server), found by label prefix.
 */
export function printRatios(title: string, rows: LoadResult[], unit?: { per: number; name: string }): void {
  const pg = rows.find((r) => r.label.startsWith('pg'));
  const floor = rows.find((r) => r.label.startsWith('floor'));
  const minimal = rows.find((r) => r.label.startsWith('minimal floor'));
  const pct = (r: LoadResult, base?: LoadResult) => (base ? `${((r.rps / base.rps) * 100).toFixed(0)} %` : '-');
  console.log(`\n${title}`);
  console.table(rows.map((r) => ({
    path: r.label, requests: r.requests, errors: r.errors, 'req/s': Math.round(r.rps),
    ...(unit ? { [unit.name]: Math.round(r.rps * unit.per) } : {}),
    'p50 ms': r.p50.toFixed(2), 'p99 ms': r.p99.toFixed(2), 'vs pg': pct(r, pg), 'vs floor': pct(r, floor),
    ...(minimal ? { 'vs minimal floor': pct(r, minimal) } : {}),
    ...(rows.some((x) => x.cpuUsPerRequest !== undefined) ? {
      'server CPU µs/req': r.cpuUsPerRequest?.toFixed(0) ?? '-',
      ...(minimal?.cpuUsPerRequest ? { 'CPU: minimal floor / this': r.cpuUsPerRequest ? `${((minimal.cpuUsPerRequest / r.cpuUsPerRequest) * 100).toFixed(0)} %` : '-' } : {}),
    } : {}),
  })));
}
