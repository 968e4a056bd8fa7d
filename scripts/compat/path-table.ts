/**
 * The per-path table of docs/nocodb-api-v2-v3.md: every v2 and v3 path Tabula
 * serves (its contracts, aliases included), with the requests of a
 * scripts/compat/v2-compare.ts run that reached it and how many NocoDB
 * answered with the same status. A development tool:
 *
 *   npx tsx scripts/compat/path-table.ts answers.json
 *
 * (answers.json: what `v2-compare.ts answers.json` wrote.) Paths no request
 * reached say so.
 */
import { readFileSync } from 'node:fs';
import { allEndpoints } from '@tabula/contracts';

interface Recorded {
  method: string;
  path: string;
  nocodb: { status: number; body: unknown };
  tabula: { status: number; body: unknown };
}

/** A contract path as a regular expression over concrete paths (`{param}` is one segment). */
function matcher(path: string): RegExp {
  const escaped = path.split(/\{[A-Za-z0-9_]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/** Literal segments first: `/records/count` is matched before `/records/{recordId}`. */
const specificity = (path: string) => path.split('/').filter((s) => s && !s.startsWith('{')).length;

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: path-table.ts answers.json');
  const answers = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Recorded>;
  const endpoints = allEndpoints()
    .filter((e) => /^\/api\/v[23]\//.test(e.path))
    .sort((a, b) => specificity(b.path) - specificity(a.path));
  const hits = new Map<string, { name: string; same: boolean; n: number; t: number }[]>();
  for (const [name, a] of Object.entries(answers)) {
    if (!a.path) continue;
    const bare = a.path.split('?')[0];
    const e = endpoints.find((x) => x.method === a.method && matcher(x.path).test(bare));
    if (!e) continue;
    const key = `${e.method} ${e.path}`;
    hits.set(key, [...(hits.get(key) ?? []), { name, same: a.nocodb.status === a.tabula.status, n: a.nocodb.status, t: a.tabula.status }]);
  }
  const rows = ['| path | requests | same status | differing (NocoDB / Tabula) |', '|---|---|---|---|'];
  let served = 0; let reached = 0; let allSame = 0;
  for (const e of [...endpoints].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    served += 1;
    const key = `${e.method} ${e.path}`;
    const got = hits.get(key) ?? [];
    if (got.length) reached += 1;
    const same = got.filter((g) => g.same).length;
    if (got.length && same === got.length) allSame += 1;
    const differing = got.filter((g) => !g.same).map((g) => `${g.name}: ${g.n} / ${g.t}`).join('; ');
    rows.push(`| \`${key}\` | ${got.length || 'not compared'} | ${got.length ? `${same} of ${got.length}` : '—'} | ${differing.replace(/\|/g, '\\|')} |`);
  }
  console.log(rows.join('\n'));
  console.log(`\n${served} v2/v3 paths served; ${reached} reached by the comparison, ${allSame} of them answered with NocoDB's status on every request`);
}

main();
