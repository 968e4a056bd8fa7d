/**
 * What grew between two V8 heap snapshots (`v8.writeHeapSnapshot`, e.g. the
 * feed bench's `--heap-snapshots DIR`): objects grouped by type and
 * constructor (or, for strings, code and arrays, by type alone), the growth in
 * count and self bytes, largest first, divided by `--per N` when given (the
 * number of streams opened between the two, say).
 * Usage: npx tsx scripts/bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [--per 1000] [--top 40]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Self bytes and count per group of one snapshot. */
export function groups(file: string): Map<string, { count: number; bytes: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byName = new Set(['object', 'closure', 'native', 'hidden', 'object shape']);
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = snap.strings[snap.nodes[i + nameAt]];
    const key = byName.has(type) ? `${type}: ${name.slice(0, 80)}` : type;
    const group = out.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += snap.nodes[i + sizeAt];
    out.set(key, group);
  }
  return out;
}

function main(): void {
  const [beforeFile, afterFile] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
  if (!beforeFile || !afterFile) throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [--per N] [--top N]');
  const option = (name: string, fallback: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
  const per = option('per', 1);
  const top = option('top', 40);
  const before = groups(beforeFile);
  const after = groups(afterFile);
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    return { group: key, count: (a.count - b.count) / per, bytes: (a.bytes - b.bytes) / per };
  }).sort((x, y) => y.bytes - x.bytes);
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  console.log(`heap growth${per > 1 ? `, divided by ${per}` : ''}: ${(total / 1024).toFixed(1)} kB (self sizes)`);
  console.table(rows.slice(0, top).map((r) => ({ group: r.group, count: Number(r.count.toFixed(2)), bytes: Math.round(r.bytes) })));
}

if (require.main === module) main();
