// Measures start-up: spawns a start command, polls health URLs until every one
// answers 200, prints the time taken, waits 10 s idle, prints the RSS of every
// node process in the started process tree, then stops it with SIGTERM and
// prints how long the drain took and the exit code.
//   node scripts/bench/startup.bench.mjs <label> <url,url,...> -- <command...>
// Env of the command is inherited (set PORT, DATA_DIR, ...).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const [label, urls, sep, ...command] = process.argv.slice(2);
if (!label || !urls || sep !== '--' || command.length === 0) throw new Error('usage: startup.bench.mjs <label> <urls> -- <command...>');
const targets = urls.split(',');
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 10_000);

function children(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry), ...children(Number(entry)));
    } catch { /* gone */ }
  }
  return out;
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { pid, mb: Math.round(kb / 1024), cmd: cmd.slice(0, 110) };
  } catch { return undefined; }
}

async function healthy(url) {
  try { return (await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200; } catch { return false; }
}

const started = performance.now();
const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
let exit;
child.on('exit', (code, signal) => { exit = { code, signal }; });
const pending = new Set(targets);
while (pending.size && !exit) {
  for (const url of [...pending]) if (await healthy(url)) pending.delete(url);
  if (pending.size) await new Promise((r) => setTimeout(r, 50));
}
const readyMs = Math.round(performance.now() - started);
console.log(`${label}: ${exit ? `exited early ${JSON.stringify(exit)}` : `all healthy in ${readyMs} ms`}`);
await new Promise((r) => setTimeout(r, idleMs));
for (const pid of children(child.pid)) {
  const info = rssOf(pid);
  if (info && /node/.test(info.cmd)) console.log(`${label}: rss ${info.mb} MB pid ${pid} ${info.cmd}`);
}
const tree = children(child.pid);
const stopAt = performance.now();
child.kill('SIGTERM');
while (!exit) await new Promise((r) => setTimeout(r, 50));
console.log(`${label}: stopped in ${Math.round(performance.now() - stopAt)} ms, exit ${JSON.stringify(exit)}`);
await new Promise((r) => setTimeout(r, Number(process.env.BENCH_LEFTOVER_MS ?? 20_000)));
const left = tree.filter((pid) => rssOf(pid));
if (left.length) console.log(`${label}: still running after stop: ${left.map((pid) => `${pid} ${rssOf(pid)?.cmd}`).join('; ')}`);
for (const pid of left) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
