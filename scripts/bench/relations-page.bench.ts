/**
 * Relations page cost (issue 14): on a table of 100,000 rows, a 25-row page
 * showing 2 link columns (a bt LinkToAnotherRecord and an mm Links), 4 lookups (one a lookup of a lookup),
 * 1 rollup and 2 formulas (one over the rollup, one over a lookup), timed
 * against the same page of the same table without those computed columns
 * (`fields=` the physical columns), against the physical columns plus a
 * nested lookup (a lookup of a lookup: a person's team's org name) and against
 * a plain copy of the table that has no relation at all, in the same run. Prints p50/p99/req/s of each, the
 * ratio (target ≤ 3×) and the SQL statements one page costs (counted in the
 * server: knex query events of the data database naming the base's schema),
 * also for pages of 5 and 100 rows (the count must not grow with the page).
 *
 * The tables, links and computed columns are created through the API; the rows
 * are written straight in SQL (`generate_series`), then ANALYZEd.
 * Standalone Tabula runs in a child process. Needs DATABASE_URL. Loopback only.
 *
 * The variants run interleaved (request by request), so a noisy machine slows
 * them alike. Settings (env): BENCH_ROWS (100000), BENCH_SECONDS (5: the four
 * HTTP variants run 4× that, the two pg ones 2×),
 * BENCH_CONCURRENCY (1: latency), BENCH_TEAMS (1000), BENCH_ORGS (50), BENCH_SKILLS (200), BENCH_SKILLS_PER_ROW (2);
 * BENCH_EXPLAIN=true prints the page's plans, BENCH_KEEP_DATABASE=true keeps the database.
 * Usage: npm run bench:relations
 */
import path from 'node:path';
import { Client, Pool } from 'pg';
import { Agent, request } from 'undici';
import { printTable, runLoad, type LoadResult } from './load';
import { dropDatabase, freshDatabase, signup } from './records-fixture';
import { startStandaloneChild } from './standalone-child';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const ROWS = env('BENCH_ROWS', 100_000);
const SECONDS = env('BENCH_SECONDS', 5);
const CONCURRENCY = env('BENCH_CONCURRENCY', 1);
const TEAMS = env('BENCH_TEAMS', 1000);
const ORGS = env('BENCH_ORGS', 50);
const SKILLS = env('BENCH_SKILLS', 200);
const SKILLS_PER_ROW = env('BENCH_SKILLS_PER_ROW', 2);
const PAGE = 25;

interface ColumnMeta { id: string; title: string; column_name: string | null; uidt: string; colOptions?: Record<string, any> }
interface TableMeta { id: string; table_name: string; columns: ColumnMeta[] }

function caller(base: string, token: string) {
  return async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${p}`, {
      method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

const PHYSICAL = [
  { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
  { column_name: 'age', title: 'Age', uidt: 'Number' },
  { column_name: 'email', title: 'Email', uidt: 'Email' },
  { column_name: 'city', title: 'City', uidt: 'SingleLineText' },
];
const PHYSICAL_FIELDS = ['Id', 'CreatedAt', 'UpdatedAt', ...PHYSICAL.map((c) => c.title)].join(',');

/** The schema: People (links, lookups, rollup, formulas), Teams (each of an Org), Skills, Orgs, and PeoplePlain (same physical columns, no relation). */
async function createSchema(call: ReturnType<typeof caller>) {
  const baseId = (await call<{ id: string }>('POST', '/api/v1/db/meta/projects/', { title: `Relations bench ${Date.now()}` })).id;
  const table = async (title: string, extra: object[]) => call<TableMeta>('POST', `/api/v1/db/meta/projects/${baseId}/tables`, {
    title, table_name: title.toLowerCase(), columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, ...extra],
  });
  const teams = await table('Teams', [{ column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, { column_name: 'budget', title: 'Budget', uidt: 'Number' }]);
  const skills = await table('Skills', [{ column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, { column_name: 'level', title: 'Level', uidt: 'Number' }]);
  const orgs = await table('Orgs', [{ column_name: 'name', title: 'Name', uidt: 'SingleLineText' }]);
  const people = await table('People', PHYSICAL);
  const plain = await table('PeoplePlain', PHYSICAL);
  const col = (body: object, on = people.id) => call<ColumnMeta>('POST', `/api/v1/db/meta/tables/${on}/columns`, body);
  const org = await col({ title: 'Org', uidt: 'LinkToAnotherRecord', parentId: teams.id, childId: orgs.id, type: 'bt' }, teams.id);
  const orgName = await col({ title: 'OrgName', uidt: 'Lookup', fk_relation_column_id: org.id, fk_lookup_column_id: orgs.columns.find((c) => c.title === 'Name')!.id }, teams.id);
  const team = await col({ title: 'Team', uidt: 'LinkToAnotherRecord', parentId: people.id, childId: teams.id, type: 'bt' });
  const skill = await col({ title: 'Skills', uidt: 'Links', parentId: people.id, childId: skills.id, type: 'mm' });
  const meta = (id: string) => call<TableMeta>('GET', `/api/v1/db/meta/tables/${id}`);
  const idOf = (t: TableMeta, title: string) => t.columns.find((c) => c.title === title)!.id;
  await col({ title: 'TeamName', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: idOf(teams, 'Name') });
  await col({ title: 'TeamBudget', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: idOf(teams, 'Budget') });
  await col({ title: 'TeamOrg', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: orgName.id });
  await col({ title: 'SkillNames', uidt: 'Lookup', fk_relation_column_id: skill.id, fk_lookup_column_id: idOf(skills, 'Name') });
  await col({ title: 'SkillSum', uidt: 'Rollup', fk_relation_column_id: skill.id, fk_rollup_column_id: idOf(skills, 'Level'), rollup_function: 'sum' });
  await col({ title: 'Score', uidt: 'Formula', formula_raw: '{SkillSum} + {Age}' });
  await col({ title: 'Label', uidt: 'Formula', formula_raw: "CONCAT({Name}, ' @ ', {TeamName})" });
  const peopleMeta = await meta(people.id);
  const teamKey = peopleMeta.columns.find((c) => c.id === team.colOptions!.fk_child_column_id)!.column_name!;
  const orgKey = (await meta(teams.id)).columns.find((c) => c.id === org.colOptions!.fk_child_column_id)!.column_name!;
  const junction = await meta(skill.colOptions!.fk_mm_model_id);
  const nameIn = (t: TableMeta, id: string) => t.columns.find((c) => c.id === id)!.column_name!;
  return {
    baseId, teams, skills, orgs, people, plain, teamKey, orgKey,
    junction: { table: junction.table_name, self: nameIn(junction, skill.colOptions!.fk_mm_child_column_id), other: nameIn(junction, skill.colOptions!.fk_mm_parent_column_id) },
  };
}

/** Fills the tables in SQL: ORGS orgs, TEAMS teams (one org each), SKILLS skills, ROWS people (one team each, SKILLS_PER_ROW skills each) and ROWS plain rows. */
async function seed(dbUrl: string, s: Awaited<ReturnType<typeof createSchema>>): Promise<void> {
  const pg = new Client({ connectionString: dbUrl });
  await pg.connect();
  const q = (name: string) => `"${s.baseId}"."${name}"`;
  const people = (name: string, withTeam: boolean) => pg.query(`insert into ${q(name)} (name, age, email, city, nc_order${withTeam ? `, "${s.teamKey}"` : ''})
    select 'person ' || g, 18 + g % 60, 'p' || g || '@example.com', 'Lisbon', g${withTeam ? ', 1 + g % $2::int' : ''}
    from generate_series(1, $1::int) g`, withTeam ? [ROWS, TEAMS] : [ROWS]);
  try {
    await pg.query(`insert into ${q(s.orgs.table_name)} (name, nc_order) select 'org ' || g, g from generate_series(1, $1::int) g`, [ORGS]);
    await pg.query(`insert into ${q(s.teams.table_name)} (name, budget, nc_order, "${s.orgKey}") select 'team ' || g, g * 10, g, 1 + g % $2::int from generate_series(1, $1::int) g`, [TEAMS, ORGS]);
    await pg.query(`insert into ${q(s.skills.table_name)} (name, level, nc_order) select 'skill ' || g, 1 + g % 5, g from generate_series(1, $1::int) g`, [SKILLS]);
    await people(s.people.table_name, true);
    await people(s.plain.table_name, false);
    await pg.query(`insert into ${q(s.junction.table)} ("${s.junction.self}", "${s.junction.other}")
      select p, 1 + (p * 7 + k * 13) % $2::int from generate_series(1, $1::int) p, generate_series(0, $3::int - 1) k
      on conflict do nothing`, [ROWS, SKILLS, Math.min(SKILLS_PER_ROW, SKILLS)]);
    for (const t of [s.orgs.table_name, s.teams.table_name, s.skills.table_name, s.people.table_name, s.plain.table_name, s.junction.table]) await pg.query(`analyze ${q(t)}`);
  } finally {
    await pg.end();
  }
}

/**
 * Closed loop over several operations interleaved: each of `concurrency`
 * workers runs them in turn (a, b, c, a, b, c…) until the time is up, so a
 * noisy machine slows every variant alike. One result per operation.
 */
async function interleaved(ops: { label: string; op: () => Promise<unknown> }[], concurrency: number, durationMs: number): Promise<LoadResult[]> {
  const latencies = ops.map(() => [] as number[]);
  const errors = ops.map(() => 0);
  const deadline = Date.now() + durationMs;
  const started = Date.now();
  const worker = async (w: number) => {
    for (let turn = w; Date.now() < deadline; turn++) {
      const k = turn % ops.length;
      const start = process.hrtime.bigint();
      try { await ops[k].op(); } catch { errors[k] += 1; }
      latencies[k].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = (Date.now() - started) / 1000;
  return ops.map(({ label }, k) => {
    const sorted = latencies[k].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
    return { label, requests: sorted.length, errors: errors[k], rps: sorted.length / elapsed, p50: at(50), p99: at(99) };
  });
}

/** A GET against loopback whose non-2xx answers throw. */
function getter(url: string, headers: Record<string, string>, agent: Agent): () => Promise<void> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost'].includes(target.hostname)) throw new Error('benchmarks only target loopback');
  return async () => {
    const res = await request(target, { method: 'GET', headers, dispatcher: agent });
    await res.body.dump();
    if (res.statusCode >= 400) throw new Error(`status ${res.statusCode}`);
  };
}

/** SQL statements of one GET (counted by the server), on the base's schema. */
interface Statement { sql: string; bindings?: unknown[] }

async function statementsRun(server: { url: string; directUrl: string }, token: string, baseId: string, p: string): Promise<Statement[]> {
  await fetch(`${server.directUrl}/__bench/statements?start`).then((r) => r.arrayBuffer());
  const res = await fetch(`${server.url}${p}`, { headers: { 'xc-auth': token } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status}`);
  return ((await (await fetch(`${server.directUrl}/__bench/statements?match=${baseId}`)).json()) as { statements: Statement[] }).statements;
}

async function statementsOf(server: { url: string; directUrl: string }, token: string, baseId: string, p: string): Promise<number> {
  return (await statementsRun(server, token, baseId, p)).length;
}

/** BENCH_EXPLAIN=true: the plan of each statement of the computed page (EXPLAIN ANALYZE, the server's own SQL and bindings). */
async function explain(dbUrl: string, statements: Statement[]): Promise<void> {
  const pg = new Client({ connectionString: dbUrl });
  await pg.connect();
  try {
    for (const st of statements) {
      const plan = await pg.query(`explain (analyze, costs off, timing on) ${st.sql}`, st.bindings ?? []);
      console.log(`\n${st.sql}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  } finally {
    await pg.end();
  }
}

async function main(): Promise<void> {
  console.log(`settings: BENCH_ROWS=${ROWS} BENCH_SECONDS=${SECONDS} BENCH_CONCURRENCY=${CONCURRENCY} BENCH_TEAMS=${TEAMS} BENCH_SKILLS=${SKILLS} BENCH_SKILLS_PER_ROW=${SKILLS_PER_ROW}, page ${PAGE} rows`);
  const dbUrl = await freshDatabase('relations');
  const server = await startStandaloneChild({ ...process.env, DATABASE_URL: dbUrl, DATA_DIR: path.resolve('data/bench-relations'), BENCH_COUNT_STATEMENTS: 'true' }, 'data');
  try {
    const { token } = await signup(server.url);
    const call = caller(server.url, token);
    let started = Date.now();
    const s = await createSchema(call);
    console.log(`schema through the API: ${Date.now() - started} ms`);
    started = Date.now();
    await seed(dbUrl, s);
    console.log(`seeded ${ROWS.toLocaleString('en')} people (+ the same plain), ${TEAMS} teams, ${SKILLS} skills, ${(ROWS * SKILLS_PER_ROW).toLocaleString('en')} skill links in SQL: ${Date.now() - started} ms`);

    const data = `/api/v1/db/data/noco/${s.baseId}`;
    const full = `${data}/People?limit=${PAGE}`;
    const sameTable = `${data}/People?limit=${PAGE}&fields=${PHYSICAL_FIELDS}`;
    const plain = `${data}/PeoplePlain?limit=${PAGE}`;
    const nested = `${data}/People?limit=${PAGE}&fields=${PHYSICAL_FIELDS},TeamOrg`;
    const sample = await call<{ list: Record<string, unknown>[] }>('GET', `${full.replace(`limit=${PAGE}`, 'limit=1')}`);
    console.log('first row with computed columns:', JSON.stringify(sample.list[0]));
    const headers = { 'xc-auth': token };
    for (const p of [plain, sameTable, nested, full]) await runLoad('warm-up', `${server.url}${p}`, headers, CONCURRENCY, 1000);

    const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
    const results = await interleaved([
      { label: `plain table (no relations), ${PAGE} rows`, op: getter(`${server.url}${plain}`, headers, agent) },
      { label: `same table, physical fields only, ${PAGE} rows`, op: getter(`${server.url}${sameTable}`, headers, agent) },
      { label: `physical fields + a lookup of a lookup (team → org), ${PAGE} rows`, op: getter(`${server.url}${nested}`, headers, agent) },
      { label: `2 links + 4 lookups (1 nested) + 1 rollup + 2 formulas, ${PAGE} rows`, op: getter(`${server.url}${full}`, headers, agent) },
    ], CONCURRENCY, SECONDS * 4000);
    await agent.close();
    printTable(`${ROWS.toLocaleString('en')} rows, ${PAGE}-row page through the gateway, ${CONCURRENCY} connections, the four interleaved for ${SECONDS * 4} s`, results);
    const [plainRun, sameRun, nestedRun, fullRun] = results;
    // The page statements themselves, straight through pg (the server's SQL and bindings): where the time goes.
    const pool = new Pool({ connectionString: dbUrl, max: CONCURRENCY });
    const pageSql = async (p: string) => (await statementsRun(server, token, s.baseId, p)).find((st) => !/^select count/i.test(st.sql))!;
    const [fullSql, sameSql] = [await pageSql(full), await pageSql(sameTable)];
    const sql = await interleaved([
      { label: 'pg: same table, physical fields only', op: () => pool.query(sameSql.sql, sameSql.bindings) },
      { label: 'pg: with the computed columns', op: () => pool.query(fullSql.sql, fullSql.bindings) },
    ], CONCURRENCY, SECONDS * 2000);
    printTable(`the page SELECT alone, straight through pg, ${CONCURRENCY} connections, interleaved for ${SECONDS * 2} s`, sql);
    await pool.end();
    const ratio = (a: LoadResult, b: LoadResult) => (a.p50 / b.p50).toFixed(2);
    console.log(`\np50 ratio, computed page / same table without them: ${ratio(fullRun, sameRun)}× (target ≤ 3×); / plain table: ${ratio(fullRun, plainRun)}×`);
    console.log(`p50 ratio, nested lookup page / plain table: ${ratio(nestedRun, plainRun)}× (target ≤ 3×); / same table without it: ${ratio(nestedRun, sameRun)}×`);
    console.log(`the page SELECT alone (pg): ${ratio(sql[1], sql[0])}× (${sql[1].p50.toFixed(2)} ms vs ${sql[0].p50.toFixed(2)} ms at p50)`);

    // Statements per page: a new filter each time so the row count is not served from the counter's cache.
    const rows: Record<string, unknown>[] = [];
    let filters = 0;
    const where = () => `&where=${encodeURIComponent(`(Age,gt,${-1 - filters++})`)}`;
    for (const limit of [5, 25, 100]) {
      const cached = `${data}/People?limit=${limit}${where()}`;
      rows.push({
        'page rows': limit,
        'with computed columns': await statementsOf(server, token, s.baseId, cached),
        'same table, physical fields': await statementsOf(server, token, s.baseId, `${data}/People?limit=${limit}&fields=${PHYSICAL_FIELDS}${where()}`),
        'nested lookup': await statementsOf(server, token, s.baseId, `${data}/People?limit=${limit}&fields=${PHYSICAL_FIELDS},TeamOrg${where()}`),
        'plain table': await statementsOf(server, token, s.baseId, `${data}/PeoplePlain?limit=${limit}${where()}`),
        'with computed columns, count cached': await statementsOf(server, token, s.baseId, cached),
      });
    }
    if (process.env.BENCH_EXPLAIN === 'true') await explain(dbUrl, await statementsRun(server, token, s.baseId, full));
    console.log('\nSQL statements per page request (on the base schema; the first three include the COUNT of a new filter)');
    console.table(rows);
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP_DATABASE === 'true') console.log(`database kept: ${dbUrl}`);
    else await dropDatabase(dbUrl);
  }
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
