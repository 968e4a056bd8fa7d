/**
 * Compares Tabula with a NocoDB peer request by request over NocoDB's v2 and
 * v3 APIs (the paths nocodb-sdk's dbDataTableRow, n8n's v2 option and node 4,
 * and NocoDB's v2 and v3 documentation use): both sides get the same base, tables and link through
 * v2 meta calls, then the same requests; each answer's status and shape are
 * compared (ids and timestamps normalized). A development tool: it needs both
 * servers running (never run by the tests; the tests keep NocoDB's answers).
 *
 *   NOCODB_URL=http://127.0.0.1:8090 NOCODB_EMAIL=… NOCODB_PASSWORD=… TABULA_URL=http://127.0.0.1:8080 \
 *     npx tsx scripts/compat/v2-compare.ts [answers.json]
 *
 * Tabula's user (TABULA_EMAIL / TABULA_PASSWORD, default compare@example.com) is signed up when it cannot
 * sign in: run it first against a fresh Tabula, whose first user is its super admin.
 * Prints one markdown row per request: path, both statuses, and the keys one side answers that the other does not.
 */
import { writeFileSync } from 'node:fs';
import { call, signIn, type Answer } from './peer-client';
import { STEPS, type Ids } from './v2-compare.steps';

interface Side {
  name: 'nocodb' | 'tabula';
  url: string;
  token: string;
  ids: Ids;
}




/** The keys of an answer, one level down into `list[0]` / `[0]` (what a client reads). */
function keysOf(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keysOf(value[0], `${prefix}[0].`) : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    `${prefix}${k}`, ...(k === 'list' || k === 'pageInfo' || (Array.isArray(v) && prefix === '') ? keysOf(v, `${prefix}${k}.`) : []),
  ]);
}

function compare(n: Answer, t: Answer): string {
  const nk = new Set(keysOf(n.body));
  const tk = new Set(keysOf(t.body));
  const onlyN = [...nk].filter((k) => !tk.has(k));
  const onlyT = [...tk].filter((k) => !nk.has(k));
  const notes: string[] = [];
  if (typeof n.body !== typeof t.body || Array.isArray(n.body) !== Array.isArray(t.body)) notes.push(`types ${JSON.stringify(n.body)?.slice(0, 40)} / ${JSON.stringify(t.body)?.slice(0, 40)}`);
  else if (typeof n.body !== 'object' || n.body === null) { if (n.body !== t.body) notes.push(`${JSON.stringify(n.body)} / ${JSON.stringify(t.body)}`); }
  const err = (a: Answer) => (a.body as { error?: string } | undefined)?.error;
  if (n.status >= 400 || t.status >= 400) notes.push(`errors ${err(n) ?? (n.body as { msg?: string })?.msg ?? '-'} / ${err(t) ?? '-'}`);
  const v3Keys = (a: Answer) => Object.keys(((a.body as { records?: { fields?: object }[] } | undefined)?.records?.[0]?.fields) ?? {}).sort().join(',');
  if (v3Keys(n) !== v3Keys(t)) notes.push(`fields ${v3Keys(n) || '-'} / ${v3Keys(t) || '-'}`);
  if (onlyN.length) notes.push(`NocoDB only: ${onlyN.slice(0, 12).join(', ')}${onlyN.length > 12 ? ` (+${onlyN.length - 12})` : ''}`);
  if (onlyT.length) notes.push(`Tabula only: ${onlyT.slice(0, 8).join(', ')}${onlyT.length > 8 ? ` (+${onlyT.length - 8})` : ''}`);
  return notes.join('; ') || 'same keys';
}

async function main(): Promise<void> {
  const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is required`); })();
  const tabulaEmail = process.env.TABULA_EMAIL ?? 'compare@example.com';
  const tabulaPassword = process.env.TABULA_PASSWORD ?? 'Compare-pass-1234';
  const sides: Side[] = [
    { name: 'nocodb', url: env('NOCODB_URL'), token: await signIn(env('NOCODB_URL'), env('NOCODB_EMAIL'), env('NOCODB_PASSWORD'), false), ids: {} },
    { name: 'tabula', url: env('TABULA_URL'), token: await signIn(env('TABULA_URL'), tabulaEmail, tabulaPassword, true), ids: {} },
  ];
  const rows: string[] = ['| request | NocoDB | Tabula | shape |', '|---|---|---|---|'];
  const answers: Record<string, { method: string; path: string; nocodb: Answer; tabula: Answer }> = {};
  let same = 0;
  for (const step of STEPS) {
    const got: Answer[] = [];
    let tabulaPath = '';
    for (const side of sides) {
      const path = step.path(side.ids);
      tabulaPath = path;
      const answer = await call(side, step.method, path, step.body?.(side.ids), step.form?.());
      step.save?.(answer.body, side.ids);
      got.push(answer);
    }
    const [n, t] = got;
    answers[step.name] = { method: step.method, path: tabulaPath, nocodb: n, tabula: t };
    if (n.status === t.status) same += 1;
    rows.push(`| ${step.name} | ${n.status} | ${t.status}${n.status === t.status ? '' : ' ≠'} | ${compare(n, t).replace(/\|/g, '\\|')} |`);
  }
  console.log(rows.join('\n'));
  console.log(`\n${same} of ${STEPS.length} requests answered the same status`);
  if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(answers, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
