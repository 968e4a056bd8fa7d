import { spawn, spawnSync } from 'node:child_process';
import { CAUSES, sourceOf } from './profile-summary';

/** Where a sample is attributed when its innermost frames are generic (V8 builtins, node's C++, libc). */
const GENERIC = /^(Builtin:|Bytecodes|Handler|Stub|BytecodeHandler|\[unknown\]|v8::|node::|uv_|std::|Builtins_|__libc|_?_?memcpy|_?_?memmove|malloc|free|operator new|pthread)/;
const GC = /Heap::|Scavenge|MarkCompact|Sweeper|ConcurrentMarking|GCTracer|MinorMarkSweep|IncrementalMarking|Evacuat/;
const SOCKET = /tcp|skb|sock|ip_|__dev_queue|loopback|net_rx|netif|sys_writev|sys_write|sys_read|sys_sendto|sys_recvfrom|inet_|__napi|do_softirq/;

/** One frame of `perf script`: its symbol and object. */
interface Frame { sym: string; dso: string }

/** A JIT frame's source file (`--perf-basic-prof` names: `JS:*name /path/file.js:line:col`, bundles mapped back to their sources). */
function jsLocation(sym: string): string | undefined {
  const m = /\s((?:file:\/\/|\/|node:)\S+):(\d+):(\d+)$/.exec(sym);
  if (!m) return undefined;
  const url = m[1].startsWith('/') ? `file://${m[1]}` : m[1];
  return sourceOf(url, Number(m[2]) - 1, Number(m[3]) - 1);
}

/** The cause of one sample (innermost frame first). */
function causeOf(frames: Frame[]): string {
  const first = frames[0];
  if (!first) return 'unknown';
  if (first.dso.includes('kernel')) return SOCKET.test(frames.map((f) => f.sym).join(' ')) ? 'kernel: sockets (loopback TCP, read/write system calls)' : 'kernel: other (epoll, scheduler, futex, memory)';
  for (const f of frames) {
    if (GC.test(f.sym)) return 'garbage collection';
    const where = jsLocation(f.sym);
    if (where) return CAUSES.find(([, re]) => re.test(where))?.[0] ?? `other: ${where.replace(/^.*node_modules\//, '').split('/').slice(0, 2).join('/')}`;
    if (!GENERIC.test(f.sym) && !f.dso.includes('kernel') && !/\/node$|libc|ld-linux|perf-\d+\.map/.test(f.dso)) return `other: ${f.sym.slice(0, 40)}`;
  }
  return 'V8 and node internals (no JS frame)';
}

/**
 * Runs `run` under `perf record` (cpu-clock: on-CPU time only, kernel
 * included, call chains) on the main thread of process `pid` (started with
 * --perf-basic-prof), and answers its CPU split by cause in µs per request.
 */
export async function perfCauses<T extends { requests: number }>(pid: number, run: () => Promise<T>): Promise<{ result: T; causes: Map<string, number>; totalUs: number }> {
  const file = `/tmp/records-perf-${pid}.data`;
  const recorder = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '1999', '-g', '-t', String(pid), '-o', file], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const result = await run();
  await new Promise((r) => { recorder.once('exit', r); recorder.kill('SIGINT'); });
  const out = spawnSync('perf', ['script', '-i', file, '-F', 'period,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  const causes = new Map<string, number>();
  let total = 0;
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    const period = Number(/^\s*(\d+)/.exec(lines[0])?.[1] ?? 0);
    const frames = lines.slice(1).map((l) => {
      const m = /^\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$/.exec(l);
      return m ? { sym: m[1], dso: m[2] } : { sym: l.trim(), dso: '' };
    });
    const cause = causeOf(frames);
    causes.set(cause, (causes.get(cause) ?? 0) + period);
    total += period;
  }
  const perRequest = new Map([...causes].map(([k, ns]) => [k, ns / 1000 / result.requests]));
  return { result, causes: perRequest, totalUs: total / 1000 / result.requests };
}
