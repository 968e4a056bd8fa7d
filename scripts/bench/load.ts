import { Agent, request } from 'undici';

/** Result of one load run. */
export interface LoadResult {
  label: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU time of the serving process (every thread) per request, µs, when measured (standalone). */
  cpuUsPerRequest?: number;
}

/**
 * Closed loop over any async operation (HTTP calls, pg queries): `concurrency`
 * workers run it back to back, bounded by time and by a request count.
 */
export async function runOps(label: string, op: (i: number) => Promise<unknown>, concurrency: number, durationMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const deadline = Date.now() + durationMs;
  const worker = async () => {
    while (Date.now() < deadline && latencies.length < 2_000_000) {
      const start = process.hrtime.bigint();
      try { await op(n++); } catch { errors += 1; }
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { label, requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(50), p99: at(99) };
}

/**
 * Closed-loop load of GET requests: `concurrency` workers send requests back
 * to back for `durationMs`, against loopback only.
 */
export async function runLoad(label: string, url: string, headers: Record<string, string>, concurrency = 16, durationMs = 5000): Promise<LoadResult> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('benchmarks only target loopback');
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  try {
    return await runOps(label, async () => {
      const res = await request(target, { method: 'GET', headers, dispatcher: agent });
      await res.body.dump();
      if (res.statusCode >= 400) throw new Error(`status ${res.statusCode}`);
    }, concurrency, durationMs);
  } finally {
    await agent.close();
  }
}

/** Prints results as a table with the ratio to the first (baseline) row. */
export function printTable(title: string, rows: LoadResult[]): void {
  const base = rows[0];
   
  console.log(`\n${title}`);
   
  console.table(rows.map((r) => ({
    path: r.label, requests: r.requests, errors: r.errors, 'req/s': Math.round(r.rps),
    'p50 ms': r.p50.toFixed(2), 'p99 ms': r.p99.toFixed(2), 'vs direct': `${((r.rps / base.rps) * 100).toFixed(0)} %`,
  })));
}
