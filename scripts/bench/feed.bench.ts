/**
 * The live change feed (docs/realtime.md): 1,000 concurrent SSE subscribers
 * on one table while single inserts commit at a steady rate. Prints, against
 * the issue's targets: commit-to-client latency (from the event's `at`, which
 * the data service stamps just before the insert's one-statement commit, to
 * each subscriber's receipt; and from the insert's answer, which follows the
 * commit: the true figure lies between), missing and repeated events, the
 * server's memory per idle subscriber after full garbage collections, and the
 * resume of 10,000 events after a disconnect. Baseline of the same run: the
 * same inserts with one subscriber (the pipeline without the fan-out). Every
 * phase prints the load average: the machine may be shared. Standalone Tabula
 * runs in a child process (its own event loop); the subscribers are real
 * sockets of this process. Needs DATABASE_URL. SVC_FEED_BATCH_MS, SVC_FEED_BATCH_MAX_MS and
 * SVC_FEED_WRITES_PER_SECOND are passed on.
 * Usage: npm run bench:feed [-- --subscribers 1000 --rate 200 --seconds 10 --resume 10000 --profile DIR --heap-snapshots DIR] */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, Pool, setGlobalDispatcher } from 'undici';
import { TestApi, col } from '@tabula/testing';
import { startStandaloneChild } from './standalone-child';
import { dropDatabase, freshDatabase } from './records-fixture';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SUBSCRIBERS = arg('subscribers', 1000);
const RATE = arg('rate', 200);
const SECONDS = arg('seconds', 10);
const RESUME = arg('resume', 10_000);
/** `--profile DIR`: the server runs under --cpu-prof, its profile written to DIR when it stops. */
const PROFILE = (() => { const i = process.argv.indexOf('--profile'); return i > 0 ? process.argv[i + 1] : undefined; })();
/** `--heap-snapshots DIR`: the server's heap written to DIR/before.heapsnapshot and DIR/idle.heapsnapshot around the subscribing (compare them with heap-diff.ts). */
const SNAPSHOTS = (() => { const i = process.argv.indexOf('--heap-snapshots'); return i > 0 ? path.resolve(process.argv[i + 1]) : undefined; })();

/** The hub's batching settings, passed on to the server when set. */
const FEED_SETTINGS = ['SVC_FEED_BATCH_MS', 'SVC_FEED_BATCH_MAX_MS', 'SVC_FEED_WRITES_PER_SECOND'];

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const fmt = (values: number[]) => `p50 ${pct(values, 50).toFixed(1)} ms  p99 ${pct(values, 99).toFixed(1)} ms  max ${pct(values, 100).toFixed(1)} ms  (n=${values.length})`;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The `Title` of an event's first row, read from its JSON text without parsing it (1,000 subscribers × 200 events/s in one process). */
function titleOf(data: string): string {
  const at = data.indexOf('"Title":"');
  return at < 0 ? '' : data.slice(at + 9, data.indexOf('"', at + 9));
}

/** The event's `at` (ms since the epoch): stamped by the data service just before the insert's one-statement commit. */
function atOf(data: string): number {
  const at = data.indexOf('"at":"');
  return at < 0 ? NaN : Date.parse(data.slice(at + 6, data.indexOf('"', at + 6)));
}

/** Now, in ms since the epoch with performance.now()'s resolution (comparable with another process's `at`). */
const wallNow = () => performance.timeOrigin + performance.now();

/** A record event as a subscriber gets it: its id, the bytes holding its `data:` JSON (from `start` to `end`), when its chunk arrived. */
type OnEvent = (seq: number, bytes: Buffer, start: number, end: number, now: number) => void;

const FRAME_END = Buffer.from('\n\n');
const RECORDS = Buffer.from('event: records.');

/** An SSE frame parser: calls `onEvent` per record event of the stream's body, as its bytes come (whole frames or not). */
function sseParser(onEvent: OnEvent): (body: Buffer, now: number) => void {
  let rest: Buffer | undefined;
  return (chunk, now) => {
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    while (start < buf.length) {
      let end: number;
      if (buf[start] === 0x69 && buf[start + 1] === 0x64 && buf[start + 2] === 0x3a) {
        // `id: <seq>\nevent: <type>\ndata: <json>\n\n` (JSON text holds no raw newline)
        let i = start + 4;
        let seq = 0;
        for (let c = buf[i]; c >= 48 && c <= 57; c = buf[++i]) seq = seq * 10 + c - 48;
        const typeEnd = buf.indexOf(10, i + 1);
        const dataEnd = typeEnd < 0 ? -1 : buf.indexOf(10, typeEnd + 1);
        if (dataEnd < 0 || dataEnd + 1 >= buf.length) break;
        end = dataEnd + 1;
        if (buf.compare(RECORDS, 0, RECORDS.length, i + 1, i + 1 + RECORDS.length) === 0) onEvent(seq, buf, typeEnd + 7, dataEnd, now);
      } else {
        // `retry:`, `: ping`, `event: reset` and the like
        end = buf.indexOf(FRAME_END, start);
        if (end < 0) break;
        end += 1;
      }
      start = end + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : undefined;
  };
}

/** A subscriber's connection (destroy: the client goes away). */
interface Stream { destroy(): void }

/**
 * A minimal SSE subscriber on a plain TCP socket: it sends the GET, reads the
 * status line and headers, then takes the chunked body apart itself and calls
 * `onEvent` per record event (the frames of one read arrived together: one
 * clock reading per read). No HTTP client (parser callbacks, a Readable per
 * response), no UTF-8 decoding: the id's digits are read in place and the
 * `data:` JSON handed over as a byte range, decoded by the receiver only when
 * it needs it (once per event, not per subscriber). This process reads
 * 200,000 frames a second beside the server on 2 cores.
 */
function subscribe(url: string, headers: Record<string, string>, onEvent: OnEvent, onChunk?: () => void): Promise<Stream> {
  const target = new URL(url);
  const frames = sseParser(onEvent);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `host: ${target.host}`, 'accept: text/event-stream', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let head: Buffer | undefined = Buffer.alloc(0);
    let chunked = false;
    /** Chunked body: bytes left of the current chunk (then its CRLF), and a size line cut by a read. */
    let left = 0;
    let crlf = 0;
    let sizeLine = '';
    const body = (data: Buffer, now: number) => {
      if (!chunked) { frames(data, now); return; }
      let i = 0;
      while (i < data.length) {
        if (crlf > 0) { const n = Math.min(crlf, data.length - i); crlf -= n; i += n; continue; }
        if (left > 0) {
          const n = Math.min(left, data.length - i);
          frames(i === 0 && n === data.length ? data : data.subarray(i, i + n), now);
          left -= n;
          i += n;
          if (left === 0) crlf = 2;
          continue;
        }
        const lf = data.indexOf(10, i);
        if (lf < 0) { sizeLine += data.toString('latin1', i); return; }
        const size = parseInt(sizeLine + data.toString('latin1', i, lf), 16);
        sizeLine = '';
        i = lf + 1;
        if (size === 0) { socket.destroy(); return; }
        left = size;
      }
    };
    socket.on('data', (data: Buffer) => {
      const now = wallNow();
      if (head) {
        head = Buffer.concat([head, data]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const text = head.toString('latin1', 0, end);
        const rest = head.subarray(end + 4);
        head = undefined;
        if (!text.startsWith('HTTP/1.1 200')) { socket.destroy(); reject(new Error(`subscribe: ${text.split('\r\n')[0]}`)); return; }
        chunked = /\r\ntransfer-encoding: *chunked/i.test(text);
        resolve(socket);
        if (rest.length) body(rest, now);
        return;
      }
      onChunk?.();
      body(data, now);
    });
    socket.on('error', (err) => { if (head) reject(err); });
  });
}

/** A handler given the event's JSON text and id (the probe's and the resume's: one stream each). */
const textEvents = (handler: (data: string, id: string) => void): OnEvent => (seq, bytes, start, end) => handler(bytes.toString('utf8', start, end), String(seq));

/**
 * Receipts of the events of a phase: per event id, the time each subscriber
 * got it; per event, its title and `at` (read from the first receipt). Each
 * subscriber also checks that its ids only grow (a repeat, or one out of
 * order, is counted per subscriber, not only in the totals per event).
 */
class Receipts {
  readonly times = new Map<number, number[]>();
  readonly seqOf = new Map<string, number>();
  readonly at = new Map<number, number>();
  count = 0;
  /** Receipts whose id was not above the subscriber's previous one. */
  disordered = 0;
  /** Chunks the subscribers read (each the bytes of one or more of the server's writes). */
  chunks = 0;
  readonly onChunk = () => { this.chunks += 1; };

  /** A new subscriber's handler recording into this. */
  subscriber(): OnEvent {
    let last = 0;
    return (seq, bytes, start, end, now) => {
      if (seq <= last) this.disordered += 1;
      last = seq;
      let list = this.times.get(seq);
      if (!list) {
        this.times.set(seq, list = []);
        const data = bytes.toString('utf8', start, end);
        this.seqOf.set(titleOf(data), seq);
        this.at.set(seq, atOf(data));
      }
      list.push(now);
      this.count += 1;
    };
  }

  private got(title: string): number[] {
    const seq = this.seqOf.get(title);
    return (seq === undefined ? undefined : this.times.get(seq)) ?? [];
  }

  /** Waits while deliveries still progress (a loaded machine drains a backlog late) until every title has `each` receipts. */
  async settle(titles: Iterable<string>, each: number): Promise<void> {
    let seen = this.count;
    let progressAt = Date.now();
    const giveUpAt = Date.now() + 300_000;
    const short = () => { for (const t of titles) if (this.got(t).length < each) return true; return false; };
    while (Date.now() < giveUpAt && Date.now() - progressAt < 10_000 && short()) {
      await new Promise((r) => setTimeout(r, 200));
      if (this.count > seen) { seen = this.count; progressAt = Date.now(); }
    }
  }

  /** Latencies from `at` and from the insert's answer, and what went missing or came twice, for `each` subscribers per commit. */
  summary(commits: Map<string, { answered: number }>, each: number) {
    const fromCommit: number[] = [];
    const fromAnswer: number[] = [];
    let missing = 0;
    let repeated = 0;
    for (const [title, t] of commits) {
      const got = this.got(title);
      missing += Math.max(0, each - got.length);
      repeated += Math.max(0, got.length - each);
      const at = this.at.get(this.seqOf.get(title) ?? -1) ?? NaN;
      for (const when of got) { fromCommit.push(when - at); fromAnswer.push(Math.max(0, when - t.answered)); }
    }
    return { fromCommit, fromAnswer, missing, repeated, disordered: this.disordered };
  }
}

/** The child's memory after full collections (scripts/bench/standalone-server.ts). */
async function collectedMemory(directUrl: string): Promise<{ rss: number; heap: number }> {
  const m = await (await fetch(`${directUrl}/__bench/memory`)).json() as { collected: boolean; rss: number; heapUsed: number; external: number };
  if (!m.collected) throw new Error('the server runs without --expose-gc');
  return { rss: m.rss, heap: m.heapUsed + m.external };
}

/** The server's heap written to `file` (its bench-only endpoint). */
async function heapSnapshot(directUrl: string, file: string): Promise<void> {
  await (await fetch(`${directUrl}/__bench/heapsnapshot?file=${encodeURIComponent(file)}`)).text();
}

const loadavg = () => `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`;

async function main(): Promise<void> {
  // The inserter is a client with a pool, as a real one is: at most 64 connections (paced inserts queue in it when the server
  // falls behind; their latency still counts from the moment each was due). fetch's default agent opened one connection per
  // waiting insert, hundreds of them against a starved server, and undici gave up connecting after 10 s ("fetch failed").
  setGlobalDispatcher(new Agent({ connections: 64, connect: { timeout: 60_000 }, headersTimeout: 600_000, bodyTimeout: 600_000 }));
  const databaseUrl = await freshDatabase('feed');
  // One user holds every stream here, so the per-user cap (default 20) is raised for the run.
  const server = await startStandaloneChild({
    DATABASE_URL: databaseUrl, EVENT_BUS: 'memory', SVC_FEED_MAX_STREAMS_PER_PRINCIPAL: String(SUBSCRIBERS + 10), DB_POOL_MAX: '20',
    ...Object.fromEntries(FEED_SETTINGS.filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
  }, 'data', ['--expose-gc', ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [])]);
  // The inserts go through undici's request() on a pool of 64 connections, not fetch(): the same HTTP requests at a
  // fraction of the client CPU (fetch's WHATWG Request/Response/streams cost ~1.5 ms of this process's CPU per call,
  // which the server then lacks on this 2-core machine).
  const inserter = new Pool(server.url, { connections: 64, connect: { timeout: 60_000 }, headersTimeout: 600_000, bodyTimeout: 600_000 });
  try {
    const api = new TestApi(server.url);
    const user = await api.signUp('bench');
    const table = await api.baseWithTable(user, { title: 'Feed', columns: [col.id(), col.text('Title')] });
    const insertUrl = `/api/v1/db/data/noco/${table.baseId}/${table.id}`;
    let networkErrors = 0;
    const networkCauses = new Map<string, number>();
    const insertHeaders = { 'xc-auth': user.token, 'content-type': 'application/json' };
    const insert = async (title: string) => {
      const started = wallNow();
      for (let attempt = 0; ; attempt += 1) {
        try {
          const res = await inserter.request({ method: 'POST', path: insertUrl, headers: insertHeaders, body: JSON.stringify({ Title: title }) });
          const text = await res.body.text();
          if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`insert: ${res.statusCode} ${text}`);
          break;
        } catch (err) {
          // a reset connection of the client's pool (counted and printed); the insert did not happen: try again
          const code = (err as { code?: string }).code;
          if (attempt >= 2 || !code || !/^(ECONNRESET|EPIPE|ECONNREFUSED|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(code)) throw err;
          networkErrors += 1;
          networkCauses.set(code, (networkCauses.get(code) ?? 0) + 1);
        }
      }
      return { started, answered: wallNow() };
    };
    /** `count` inserts at RATE per second (each due at its time, whatever the answers); `commits` gets each one's times. */
    const paced = async (count: number, prefix: string, commits?: Map<string, { started: number; answered: number }>) => {
      const gap = 1000 / RATE;
      const begin = performance.now();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < count; i += 1) {
        const due = begin + i * gap;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const title = `${prefix}${i}`;
        pending.push(insert(title).then((t) => { commits?.set(title, t); }));
      }
      await Promise.all(pending);
    };
    const latencies = (commits: Map<string, { started: number; answered: number }>) => [...commits.values()].map((t) => t.answered - t.started);
    const streamUrl = `${server.url}/api/v1/events/tables/${table.id}`;

    // Baseline, the same inserts with one subscriber: the pipeline's own latency (commit, outbox, bus, feed log, hub) without the fan-out.
    await paced(RATE * 2, 'warm');
    const baseReceipts = new Receipts();
    const single = await subscribe(streamUrl, { 'xc-auth': user.token }, baseReceipts.subscriber());
    const baseCommits = new Map<string, { started: number; answered: number }>();
    const baseCpu = cpuSeconds(server.child.pid as number);
    const baseClientCpu = process.cpuUsage();
    await paced(RATE * SECONDS, 'base', baseCommits);
    await baseReceipts.settle(baseCommits.keys(), 1);
    const baseline = { ...baseReceipts.summary(baseCommits, 1), load: loadavg(), cpu: cpuSeconds(server.child.pid as number) - baseCpu, clientCpu: (() => { const u = process.cpuUsage(baseClientCpu); return (u.user + u.system) / 1e6; })() };
    single.destroy();
    await new Promise((r) => setTimeout(r, 1000));

    if (SNAPSHOTS) await heapSnapshot(server.directUrl, path.join(SNAPSHOTS, 'before.heapsnapshot'));
    const before = await collectedMemory(server.directUrl);
    const receipts = new Receipts();
    const streams: Stream[] = [];
    for (let i = 0; i < SUBSCRIBERS; i += 1) streams.push(await subscribe(streamUrl, { 'xc-auth': user.token }, receipts.subscriber(), receipts.onChunk));
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await collectedMemory(server.directUrl);
    if (SNAPSHOTS) await heapSnapshot(server.directUrl, path.join(SNAPSHOTS, 'idle.heapsnapshot'));
    receipts.chunks = 0;

    const commits = new Map<string, { started: number; answered: number }>();
    const serverCpu = cpuSeconds(server.child.pid as number);
    const clientCpu = process.cpuUsage();
    const liveStart = performance.now();
    await paced(RATE * SECONDS, 'live', commits);
    // `missing` counts what never came, not what came late (latency says that).
    await receipts.settle(commits.keys(), SUBSCRIBERS);
    const liveSeconds = (performance.now() - liveStart) / 1000;
    const live = { ...receipts.summary(commits, SUBSCRIBERS), load: loadavg() };
    const serverCpuUsed = cpuSeconds(server.child.pid as number) - serverCpu;
    const clientCpuUsed = (() => { const u = process.cpuUsage(clientCpu); return (u.user + u.system) / 1e6; })();
    for (const s of streams) s.destroy();
    // The resume is measured on a quiet server: what the live phase left queued drains first.
    await new Promise((r) => setTimeout(r, 3000));

    // Resume: RESUME events committed while disconnected, then one client resumes from the id before them.
    let lastId = '';
    const probe = await subscribe(streamUrl, { 'xc-auth': user.token }, textEvents((data, id) => { if (titleOf(data) === 'marker') lastId = id; }));
    await insert('marker');
    while (!lastId) await new Promise((r) => setTimeout(r, 20));
    probe.destroy();
    const from = lastId;
    const queue = Array.from({ length: RESUME }, (_, i) => `r${i}`);
    await Promise.all(Array.from({ length: 16 }, async () => { for (let t = queue.shift(); t; t = queue.shift()) await insert(t); }));
    await new Promise((r) => setTimeout(r, 1000));
    const replayedTitles = new Map<string, number>();
    let replayed = 0;
    const resumeLoad = loadavg();
    const resumeStart = performance.now();
    let resumeMs = 0;
    const resumed = await subscribe(streamUrl, { 'xc-auth': user.token, 'last-event-id': from }, textEvents((data) => {
      const title = titleOf(data);
      replayedTitles.set(title, (replayedTitles.get(title) ?? 0) + 1);
      if (/^r\d+$/.test(title)) replayed += 1;
      if (replayed === RESUME && !resumeMs) resumeMs = performance.now() - resumeStart;
    }));
    const until = Date.now() + 60_000;
    while (replayed < RESUME && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    resumed.destroy();
    const resumeRepeats = [...replayedTitles.values()].filter((n) => n > 1).length;
    const resumeOthers = [...replayedTitles.keys()].filter((t) => !/^r\d+$/.test(t)).length;

    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const perSubscriber = { rss: (idle.rss - before.rss) / 1024 / SUBSCRIBERS, heap: (idle.heap - before.heap) / 1024 / SUBSCRIBERS };
    console.log(`feed bench: ${SUBSCRIBERS} SSE subscribers on one table, ${RATE} single inserts/s for ${SECONDS} s (standalone, memory bus, child process; ${FEED_SETTINGS.map((name) => `${name} ${process.env[name] ?? 'default'}`).join(', ')})`);
    console.log('  commit-to-client: from the event\'s `at`, stamped just before the insert\'s one-statement commit (so at least the true figure);');
    console.log('  answer-to-client: from the insert\'s answer, which comes after the commit (so at most the true figure)');
    console.log(`  baseline, 1 subscriber (${baseline.load}):`);
    console.log(`    insert latency:    ${fmt(latencies(baseCommits))}`);
    console.log(`    commit-to-client:  ${fmt(baseline.fromCommit)}`);
    console.log(`    answer-to-client:  ${fmt(baseline.fromAnswer)}`);
    console.log(`    events: ${baseCommits.size} expected, missing ${baseline.missing}, repeated ${baseline.repeated} (out of order or repeated within a stream ${baseline.disordered}); CPU server ${baseline.cpu.toFixed(1)} s (${(baseline.cpu * 1e3 / Math.max(1, baseCommits.size)).toFixed(2)} ms per insert and its event), inserter + subscriber (this process) ${baseline.clientCpu.toFixed(1)} s`);
    console.log(`  ${SUBSCRIBERS} subscribers (${live.load}):`);
    console.log(`    insert latency:    ${fmt(latencies(commits))}`);
    console.log(`    commit-to-client:  ${fmt(live.fromCommit)}  target p50 ≤ 50 ms: ${verdict(pct(live.fromCommit, 50) <= 50)}, p99 ≤ 200 ms: ${verdict(pct(live.fromCommit, 99) <= 200)}`);
    console.log(`    answer-to-client:  ${fmt(live.fromAnswer)}`);
    console.log(`    events: ${commits.size} × ${SUBSCRIBERS} expected, missing ${live.missing} (never delivered), repeated ${live.repeated} (out of order or repeated within a stream ${live.disordered})  target none missing: ${verdict(live.missing === 0)}`);
    console.log(`    live phase until the last delivery: ${liveSeconds.toFixed(1)} s wall; CPU server ${serverCpuUsed.toFixed(1)} s (${(serverCpuUsed * 1e6 / Math.max(1, commits.size * SUBSCRIBERS)).toFixed(2)} µs per delivery, inserts included), subscribers + inserter (this process) ${clientCpuUsed.toFixed(1)} s; ${(receipts.count / Math.max(1, receipts.chunks)).toFixed(1)} events per chunk read`);
    console.log(`  idle memory per subscriber (server, after full GCs): RSS ${perSubscriber.rss.toFixed(1)} kB, JS heap + external ${perSubscriber.heap.toFixed(1)} kB (RSS ${(before.rss / 1048576).toFixed(0)} → ${(idle.rss / 1048576).toFixed(0)} MiB)  target ≤ 30 kB: ${verdict(perSubscriber.rss <= 30)}`);
    console.log(`  resume: ${replayedTitles.size - resumeOthers}/${RESUME} events replayed in ${resumeMs ? resumeMs.toFixed(0) : '(incomplete)'} ms (repeated ${resumeRepeats}, other titles ${resumeOthers}; ${resumeLoad})  target ≤ 1000 ms: ${verdict(resumeMs > 0 && resumeMs <= 1000)}`);
    console.log(`  client connection failures retried: ${networkErrors}${networkErrors ? ` (${[...networkCauses].map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}`);
  } finally {
    await inserter.close();
    await server.stop();
    await dropDatabase(databaseUrl);
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
