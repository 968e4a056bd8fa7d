/** A node of a V8 CPU profile. */
export interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** A V8 CPU profile (what `Profiler.stop` answers). */
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/**
 * Prints self time by package and the top `top` frames by self time, as shares
 * of the busy (non-idle) time and, given the requests served meanwhile, as µs
 * per request.
 */
export function summarise(profile: CpuProfile, requests?: number, top = 30): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') return;
    const t = profile.timeDeltas[i];
    total += t;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(`file://${process.cwd()}/`, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + t);
    // Self time by package / folder: where the time goes at a glance.
    const url = f.url;
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? /(libs|services)\/[^/]+/.exec(url)?.[0] ?? (url.startsWith('node:') ? 'node internals' : url ? url : f.functionName || '(native)');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
  });
  const share = (t: number) => `${((t / total) * 100).toFixed(1)} %${requests ? ` ${(t / requests).toFixed(1)} µs` : ''}`;
  console.log(`busy ${(total / 1000).toFixed(0)} ms${requests ? `, ${(total / requests).toFixed(0)} µs per request` : ''}`);
  console.log('by package:', [...byPackage.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, t]) => `${k} ${share(t)}`).join(', '));
  for (const [key, t] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${share(t).padStart(18)}  ${key}`);
}

/**
 * The causes a records request's CPU is split into (first match wins), by the
 * file a frame's code is in (bundled frames mapped back to their source) or
 * its name (native frames).
 */
export const CAUSES: [string, RegExp][] = [
  ['the floor\'s own handler', /scripts\/bench\//],
  ['tracing (OpenTelemetry)', /@opentelemetry|libs\/telemetry\/src\/(tracing|route-template)/],
  ['logging (pino, access lines)', /pino|sonic-boom|libs\/telemetry\/src\/(logger|access-log|log-format)/],
  ['metrics (prom-client)', /prom-client|libs\/telemetry\/src\/metrics|libs\/runtime\/src\/service-metrics/],
  ['request context (AsyncLocalStorage)', /node:async_hooks|node:internal\/async_hooks|promiseInitHook|promiseAfterHook|promiseBeforeHook/],
  ['database driver (pg, knex, pool)', /\/(pg|pg-protocol|pg-types|postgres-[a-z]+|knex|tarn|pg-pool)\/|libs\/db\/src/],
  ['validation (zod)', /\/zod\//],
  ['koa, router and house middleware', /\/(koa|@koa\/[a-z]+|koa-compose|delegates|on-finished|ee-first|mime-types|content-type|http-errors|statuses|type-is|vary|accepts|negotiator|fresh|cookies|depd|path-to-regexp|encodeurl|escape-html|destroy|only|parseurl)\/|libs\/http\/src/],
  ['profiler (inspector)', /^dispatch$/],
  ['gateway (auth cache, identity, dispatch)', /services\/gateway\/src|libs\/auth\/src|lru-cache|jws|jsonwebtoken|oneShotDigest|Hmac/],
  ['data service (use case, SQL text, presenters)', /services\/data\/src|libs\/query\/src|libs\/contracts\/src/],
  ['events, outbox, hooks, realtime', /libs\/events\/src|services\/(hooks|realtime)\/src|@bufbuild/],
  ['socket writes (writev/write syscalls)', /^(writev|writeBuffer|writeString|writeUtf8String|writeLatin1String)$/],
  ['node HTTP and streams', /node:|^(runMicrotasks|hrtimeBigInt|utf8Slice|latin1Slice|hexSlice)$/],
  ['garbage collection', /\(garbage collector\)/],
];

/** Maps a bundled frame back to its source file through the bundle's source map, when there is one. */
export function sourceOf(url: string, line: number, column: number): string {
  if (!url.startsWith('file://') || url.includes('node_modules')) return url;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { findSourceMap, SourceMap } = require('node:module') as typeof import('node:module');
    const file = url.slice('file://'.length);
    let map = mapCache.get(file);
    if (map === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fs = require('node:fs') as typeof import('node:fs');
      map = fs.existsSync(`${file}.map`) ? new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))) : findSourceMap(file) ?? null;
      mapCache.set(file, map);
    }
    const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource ?? url;
  } catch {
    return url;
  }
}
const mapCache = new Map<string, import('node:module').SourceMap | null>();

/**
 * Prints a profile's busy time split by cause ({@link CAUSES}): each sample is
 * counted for its innermost frame's cause, µs per request beside the share.
 */
export function byCause(profile: CpuProfile, requests: number, title = '', cpuUsPerRequest?: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const causeOf = new Map<number, string>();
  const totals = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    let cause = causeOf.get(id);
    if (cause === undefined) {
      const f = node.callFrame as ProfileNode['callFrame'] & { columnNumber?: number };
      const where = sourceOf(f.url, f.lineNumber, f.columnNumber ?? 0);
      cause = CAUSES.find(([, re]) => re.test(where) || re.test(f.functionName))?.[0] ?? (where ? `other: ${where.replace(/^.*node_modules\//, '').split('/').slice(0, 3).join('/')}` : `other: ${f.functionName}`);
      causeOf.set(id, cause);
    }
    busy += profile.timeDeltas[i];
    totals.set(cause, (totals.get(cause) ?? 0) + profile.timeDeltas[i]);
  });
  // The profiler's own frames are left out of the shares; the sampled (wall) time of a loaded machine
  // includes time the thread waited for a CPU, so each share is also given of the main thread's CPU time.
  const profiler = totals.get('profiler (inspector)') ?? 0;
  totals.delete('profiler (inspector)');
  const work = busy - profiler;
  console.log(`\n${title} by cause (innermost frame; share of the main thread's sampled time without the profiler, ${(work / requests).toFixed(0)} µs per request${cpuUsPerRequest ? `; × its CPU time, ${cpuUsPerRequest.toFixed(0)} µs per request` : ''}):`);
  for (const [cause, t] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((t / work) * 100).toFixed(1).padStart(5)} %${cpuUsPerRequest ? ` ${((t / work) * cpuUsPerRequest).toFixed(0).padStart(5)} µs CPU` : ''}  ${cause}`);
  }
}

/**
 * `npx tsx scripts/bench/profile-summary.ts FILE.cpuprofile [REQUESTS]`: prints
 * a saved profile (`--cpu-prof`, e.g. bench:feed's `--profile DIR`) by package,
 * by frame and by cause, per request when REQUESTS is given.
 */
if (process.argv[1]?.endsWith('profile-summary.ts') && process.argv[2]) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as CpuProfile;
  const requests = process.argv[3] ? Number(process.argv[3]) : undefined;
  summarise(profile, requests, 40);
  byCause(profile, requests ?? 1);
}
