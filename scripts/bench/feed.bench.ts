/**
 * The live change feed (docs/realtime.md): 1,000 concurrent SSE subscribers
 * on one table while single inserts commit at a steady rate. Prints
 * commit-to-client latency (from the insert's answer to each subscriber's
 * receipt; also from the request's start), missing and repeated events,
 * the server's resident memory per idle subscriber, and the resume of
 * 10,000 events after a disconnect. Baseline of the same run: the insert's
 * own latency without subscribers. Standalone Tabula runs in a child process
 * (its own event loop); the subscribers are real sockets of this process.
 * Needs DATABASE_URL.
 * Usage: npm run bench:feed [-- --subscribers 1000 --rate 200 --seconds 10 --resume 10000]
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { Agent, setGlobalDispatcher } from 'undici';
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

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const fmt = (values: number[]) => `p50 ${pct(values, 50).toFixed(1)} ms  p99 ${pct(values, 99).toFixed(1)} ms  max ${pct(values, 100).toFixed(1)} ms  (n=${values.length})`;

function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0);
}

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

/** A minimal SSE subscriber: calls `onEvent(title, id)` per record event. */
function subscribe(url: string, headers: Record<string, string>, onEvent: (title: string, id: string) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`subscribe: ${res.statusCode}`)); return; }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          const id = block.split('\n').find((l) => l.startsWith('id: '));
          if (data && id && block.includes('event: records.')) onEvent(titleOf(data), id.slice(4));
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  // The inserter is a client with a pool, as a real one is: at most 64 connections (paced inserts queue in it when the server
  // falls behind; their latency still counts from the moment each was due). fetch's default agent opened one connection per
  // waiting insert, hundreds of them against a starved server, and undici gave up connecting after 10 s ("fetch failed").
  setGlobalDispatcher(new Agent({ connections: 64, connect: { timeout: 60_000 }, headersTimeout: 600_000, bodyTimeout: 600_000 }));
  const databaseUrl = await freshDatabase('feed');
  // One user holds every stream here, so the per-user cap (default 20) is raised for the run.
  const server = await startStandaloneChild({ DATABASE_URL: databaseUrl, EVENT_BUS: 'memory', SVC_FEED_MAX_STREAMS_PER_PRINCIPAL: String(SUBSCRIBERS + 10), DB_POOL_MAX: '20' });
  try {
    const api = new TestApi(server.url);
    const user = await api.signUp('bench');
    const table = await api.baseWithTable(user, { title: 'Feed', columns: [col.id(), col.text('Title')] });
    const insertUrl = `/api/v1/db/data/noco/${table.baseId}/${table.id}`;
    let networkErrors = 0;
    const networkCauses = new Map<string, number>();
    const insert = async (title: string) => {
      const started = performance.now();
      for (let attempt = 0; ; attempt += 1) {
        try {
          await api.ok('POST', insertUrl, { token: user.token, body: { Title: title } }, 'insert');
          break;
        } catch (err) {
          // a reset connection of the client's pool (counted and printed); the insert did not happen: try again
          if (attempt >= 2 || !String((err as Error).message).includes('fetch failed')) throw err;
          networkErrors += 1;
          const cause = (err as { cause?: { code?: string; message?: string } }).cause;
          const name = cause?.code ?? cause?.message ?? 'unknown';
          networkCauses.set(name, (networkCauses.get(name) ?? 0) + 1);
        }
      }
      return { started, answered: performance.now() };
    };
    // Baseline: inserts at the same rate with nobody subscribed.
    const paced = async (count: number, prefix: string, each: (title: string, t: { started: number; answered: number }) => void) => {
      const gap = 1000 / RATE;
      const begin = performance.now();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < count; i += 1) {
        const due = begin + i * gap;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const title = `${prefix}${i}`;
        pending.push(insert(title).then((t) => each(title, t)));
      }
      await Promise.all(pending);
    };
    const baseline: number[] = [];
    await paced(RATE * 2, 'warm', (_, t) => baseline.push(t.answered - t.started));
    baseline.length = 0;
    await paced(RATE * SECONDS, 'base', (_, t) => baseline.push(t.answered - t.started));

    const before = rssKb(server.child.pid as number);
    const received = new Map<string, number[]>();
    const counts = new Map<string, number>();
    const streams: http.ClientRequest[] = [];
    const streamUrl = `${server.url}/api/v1/events/tables/${table.id}`;
    for (let i = 0; i < SUBSCRIBERS; i += 1) {
      streams.push(await subscribe(streamUrl, { 'xc-auth': user.token }, (title) => {
        const now = performance.now();
        (received.get(title) ?? received.set(title, []).get(title)!).push(now);
        counts.set(title, (counts.get(title) ?? 0) + 1);
      }));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssKb(server.child.pid as number);

    const commits = new Map<string, { started: number; answered: number }>();
    const writeLatency: number[] = [];
    const serverCpu = cpuSeconds(server.child.pid as number);
    const clientCpu = process.cpuUsage();
    const liveStart = performance.now();
    await paced(RATE * SECONDS, 'live', (title, t) => { commits.set(title, t); writeLatency.push(t.answered - t.started); });
    // Every event is waited for while deliveries still progress (a loaded machine drains a backlog late):
    // `missing` counts what never came, not what came late (latency says that).
    const delivered = () => { let n = 0; for (const c of counts.values()) n += c; return n; };
    let seen = delivered();
    let progressAt = Date.now();
    const giveUpAt = Date.now() + 300_000;
    while (Date.now() < giveUpAt && Date.now() - progressAt < 10_000 && [...commits.keys()].some((k) => (counts.get(k) ?? 0) < SUBSCRIBERS)) {
      await new Promise((r) => setTimeout(r, 200));
      const now = delivered();
      if (now > seen) { seen = now; progressAt = Date.now(); }
    }
    const drainSeconds = (performance.now() - liveStart) / 1000;
    const fromAnswer: number[] = [];
    const fromStart: number[] = [];
    let missing = 0;
    let repeated = 0;
    for (const [title, t] of commits) {
      const got = received.get(title) ?? [];
      missing += Math.max(0, SUBSCRIBERS - got.length);
      repeated += Math.max(0, got.length - SUBSCRIBERS);
      for (const at of got) { fromAnswer.push(Math.max(0, at - t.answered)); fromStart.push(at - t.started); }
    }
    const liveSeconds = drainSeconds;
    const serverCpuUsed = cpuSeconds(server.child.pid as number) - serverCpu;
    const clientCpuUsed = (() => { const u = process.cpuUsage(clientCpu); return (u.user + u.system) / 1e6; })();
    for (const s of streams) s.destroy();
    // The resume is measured on a quiet server: what the live phase left queued drains first.
    await new Promise((r) => setTimeout(r, 3000));

    // Resume: RESUME events committed while disconnected, then one client resumes from the id before them.
    let lastId = '';
    const probe = await subscribe(streamUrl, { 'xc-auth': user.token }, (title, id) => { if (title === 'marker') lastId = id; });
    await insert('marker');
    while (!lastId) await new Promise((r) => setTimeout(r, 20));
    probe.destroy();
    const from = lastId;
    const queue = Array.from({ length: RESUME }, (_, i) => `r${i}`);
    await Promise.all(Array.from({ length: 16 }, async () => { for (let t = queue.shift(); t; t = queue.shift()) await insert(t); }));
    await new Promise((r) => setTimeout(r, 1000));
    const replayedTitles = new Map<string, number>();
    let replayed = 0;
    const resumeStart = performance.now();
    let resumeMs = 0;
    const resumed = await subscribe(streamUrl, { 'xc-auth': user.token, 'last-event-id': from }, (title) => {
      replayedTitles.set(title, (replayedTitles.get(title) ?? 0) + 1);
      if (/^r\d+$/.test(title)) replayed += 1;
      if (replayed === RESUME && !resumeMs) resumeMs = performance.now() - resumeStart;
    });
    const until = Date.now() + 60_000;
    while (replayed < RESUME && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    resumed.destroy();
    const resumeRepeats = [...replayedTitles.values()].filter((n) => n > 1).length;
    const resumeOthers = [...replayedTitles.keys()].filter((t) => !/^r\d+$/.test(t)).length;

    console.log(`feed bench: ${SUBSCRIBERS} SSE subscribers on one table, ${RATE} single inserts/s for ${SECONDS} s (standalone, memory bus, child process)`);
    console.log(`  baseline  insert latency, no subscribers:     ${fmt(baseline)}`);
    console.log(`  insert latency with ${SUBSCRIBERS} subscribers:        ${fmt(writeLatency)}`);
    console.log(`  commit-to-client (from the insert's answer): ${fmt(fromAnswer)}`);
    console.log(`  request-to-client (from the insert's start): ${fmt(fromStart)}`);
    console.log(`  events: ${commits.size} × ${SUBSCRIBERS} expected, missing ${missing} (never delivered), repeated ${repeated}`);
    console.log(`  server RSS: ${before} kB before, ${idle} kB with ${SUBSCRIBERS} idle streams: ${((idle - before) / SUBSCRIBERS).toFixed(1)} kB per subscriber`);
    console.log(`  live phase until the last delivery: ${liveSeconds.toFixed(1)} s wall; CPU server ${serverCpuUsed.toFixed(1)} s, subscribers + inserter (this process) ${clientCpuUsed.toFixed(1)} s; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
    console.log(`  client connection failures retried: ${networkErrors}${networkErrors ? ` (${[...networkCauses].map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}`);
    console.log(`  resume: ${replayedTitles.size - resumeOthers}/${RESUME} events replayed in ${resumeMs ? resumeMs.toFixed(0) : '(incomplete)'} ms (repeated ${resumeRepeats}, other titles ${resumeOthers})`);
  } finally {
    await server.stop();
    await dropDatabase(databaseUrl);
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
