import type { Knex } from 'knex';
import { Api } from 'nocodb-sdk';
import type { ServiceDefinition } from '@tabula/runtime';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import type { SourceRegistry } from '@tabula/db';
import { describeVariant, sourceVariants } from './source-variants.helpers';

/**
 * No N+1: a page of records with 2 link columns, 4 lookups (one of them a
 * lookup of a lookup), 2 rollups (one of them a rollup of a rollup) and 2 formulas costs the same number of SQL statements on the user tables
 * whatever its size, on the default source and on external PostgreSQL,
 * MariaDB and SQLite sources (knex 'query' events of the pool serving the
 * base: the data database's, counted when they name the base's schema, or
 * the external source's own pool).
 */
let stack: TestStack;
let token: string;
let dataDb: Knex | undefined;
const cleanups: (() => Promise<void>)[] = [];
/** Statements seen on every pool the data service handed out since the last reset. */
const seen: { knex: Knex; sql: string }[] = [];
const watched = new WeakSet<Knex>();

function watch(knex: Knex): void {
  if (watched.has(knex)) return;
  watched.add(knex);
  knex.on('query', (q: { sql: string }) => seen.push({ knex, sql: q.sql }));
}

const services: ServiceDefinition<any, any>[] = allServices.map((d) => (d.name !== 'data' ? d : {
  ...d,
  buildPorts: async (common: { dataDb: Knex }, config: unknown) => {
    dataDb = common.dataDb;
    const ports = await d.buildPorts(common as never, config as never) as { sources: SourceRegistry };
    // Every pool a table handle uses is watched (the default source's is the data database's).
    const handleOf = ports.sources.handleOf.bind(ports.sources);
    ports.sources.handleOf = (source) => { const h = handleOf(source); watch(h.knex); return h; };
    return ports;
  },
}));

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** How a base of each source variant is created, and how many statements a page with its count costs there. */
const variants = sourceVariants('reln1', cleanups, ['default source', 'external PostgreSQL', 'external SQLite', 'external MariaDB']).map((v) => ({
  ...v,
  // Page and COUNT; external PostgreSQL also reads the planner's row estimate of the table (pg_class). The default
  // source's statements are those naming the base's schema (the pg_class row estimate binds it instead).
  withCount: v.name === 'external PostgreSQL' ? 3 : 2,
}));

/** The statements one GET ran on the base's rows: on its external pool, or on the data database naming its schema. */
async function statementsOf(baseId: string, external: boolean, path: string): Promise<{ count: number; rows: number }> {
  seen.length = 0;
  const res = await raw('GET', path);
  expect(res.status).toBe(200);
  const mine = seen.filter((s) => (external ? s.knex !== dataDb : s.knex === dataDb && s.sql.includes(baseId)));
  return { count: mine.length, rows: res.body.list.length };
}

beforeAll(async () => {
  // External sources on this machine's databases: private addresses, allowed only by the flag.
  stack = await startTestStack(services, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
  const signup = await fetch(`${stack.url}/api/v1/auth/user/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'relations-n1@example.com', password: 'Password123!' }),
  });
  token = ((await signup.json()) as { token: string }).token;
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  for (const c of cleanups) await c().catch(() => undefined);
});

const sorted = (v: unknown) => (Array.isArray(v) ? [...v].sort() : v);

for (const variant of variants) describeVariant(variant.name, `statements per page on ${variant.name}`, () => {
  const { name, withCount, body } = variant;
  let api: Api<unknown>;
  let baseId: string;
  let external = false;

  beforeAll(async () => {
    api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
    const extra = await body();
    if (!extra) throw new Error(`${name}: no backend for this variant`);
    external = extra.external === true;
    baseId = (await raw('POST', '/api/v1/db/meta/projects', { title: `N+1 ${name}`, ...extra })).body.id;
    const table = async (title: string, extra: object[] = []) => (await api.dbTable.create(baseId, {
      title, table_name: title.toLowerCase(),
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, ...extra],
    } as never)).id as string;
    const teams = await table('Teams', [{ column_name: 'budget', title: 'Budget', uidt: 'Number' }]);
    const skills = await table('Skills', [{ column_name: 'level', title: 'Level', uidt: 'Number' }]);
    const people = await table('People', [{ column_name: 'age', title: 'Age', uidt: 'Number' }]);
    const orgs = await table('Orgs');
    const courses = await table('Courses', [{ column_name: 'hours', title: 'Hours', uidt: 'Number' }]);
    const col = async (body: object, on = people) => (await raw('POST', `/api/v1/db/meta/tables/${on}/columns`, body)).body;
    // Depth: a team's org name, looked up from people through the team (a lookup of a lookup).
    const org = await col({ title: 'Org', uidt: 'LinkToAnotherRecord', parentId: teams, childId: orgs, type: 'bt' }, teams);
    const orgName = (await raw('GET', `/api/v1/db/meta/tables/${orgs}`)).body.columns.find((c: { title: string }) => c.title === 'Name').id;
    const teamOrg = await col({ title: 'OrgName', uidt: 'Lookup', fk_relation_column_id: org.id, fk_lookup_column_id: orgName }, teams);
    const team = await col({ title: 'Team', uidt: 'LinkToAnotherRecord', parentId: people, childId: teams, type: 'bt' });
    const skill = await col({ title: 'Skills', uidt: 'Links', parentId: people, childId: skills, type: 'mm' });
    await col({ title: 'Skill', uidt: 'LinkToAnotherRecord', parentId: courses, childId: skills, type: 'bt' }, courses);
    const metaOf = async (id: string) => (await raw('GET', `/api/v1/db/meta/tables/${id}`)).body.columns as { id: string; title: string; colOptions?: any }[];
    const id = (cols: { id: string; title: string }[], title: string) => cols.find((c) => c.title === title)!.id;
    // Depth: a skill's course hours (a rollup), summed over a person's skills (a rollup of a rollup).
    const skillCourses = (await metaOf(skills)).find((c) => c.colOptions?.type === 'hm' && c.colOptions.fk_related_model_id === courses)!;
    await col({ title: 'Hours', uidt: 'Rollup', fk_relation_column_id: skillCourses.id, fk_rollup_column_id: id(await metaOf(courses), 'Hours'), rollup_function: 'sum' }, skills);
    const [teamCols, skillCols] = [await metaOf(teams), await metaOf(skills)];
    await col({ title: 'TeamName', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: id(teamCols, 'Name') });
    await col({ title: 'TeamBudget', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: id(teamCols, 'Budget') });
    expect((await col({ title: 'TeamOrg', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: teamOrg.id })).title).toBe('TeamOrg');
    await col({ title: 'SkillNames', uidt: 'Lookup', fk_relation_column_id: skill.id, fk_lookup_column_id: id(skillCols, 'Name') });
    await col({ title: 'SkillSum', uidt: 'Rollup', fk_relation_column_id: skill.id, fk_rollup_column_id: id(skillCols, 'Level'), rollup_function: 'sum' });
    expect((await col({ title: 'SkillHours', uidt: 'Rollup', fk_relation_column_id: skill.id, fk_rollup_column_id: id(skillCols, 'Hours'), rollup_function: 'sum' })).title).toBe('SkillHours');
    await col({ title: 'Score', uidt: 'Formula', formula_raw: '{SkillSum} + {Age}' });
    await col({ title: 'Label', uidt: 'Formula', formula_raw: "CONCAT({Name}, ' @ ', {TeamName})" });
    await api.dbTableRow.bulkCreate('noco', baseId, 'Orgs', [{ Name: 'acme' }, { Name: 'initech' }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Teams', [{ Name: 'red', Budget: 10, Org: [1] }, { Name: 'blue', Budget: 20, Org: [2] }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Skills', [{ Name: 'sql', Level: 3 }, { Name: 'ts', Level: 5 }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Courses', [{ Name: 'c1', Hours: 2, Skill: [1] }, { Name: 'c2', Hours: 4, Skill: [1] }, { Name: 'c3', Hours: 1, Skill: [2] }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'People', Array.from({ length: 120 }, (_, i) => ({
      Name: `p${i}`, Age: 20 + i, Team: [(i % 2) + 1], Skills: i % 3 === 0 ? [1, 2] : [2],
    })));
  }, 180_000);

  it('computes links, lookups, rollups and formulas correctly', async () => {
    const page = (await raw('GET', `/api/v1/db/data/noco/${baseId}/People?limit=3&sort=Id`)).body.list;
    expect(page.map((r: any) => [r.Team, r.Skills, r.TeamName, r.TeamBudget, sorted(r.SkillNames), Number(r.SkillSum), Number(r.Score), r.Label, r.TeamOrg, Number(r.SkillHours)])).toEqual([
      [{ Id: 1, Name: 'red' }, 2, 'red', 10, ['sql', 'ts'], 8, 28, 'p0 @ red', 'acme', 7],
      [{ Id: 2, Name: 'blue' }, 1, 'blue', 20, ['ts'], 5, 26, 'p1 @ blue', 'initech', 1],
      [{ Id: 1, Name: 'red' }, 1, 'red', 10, ['ts'], 5, 27, 'p2 @ red', 'acme', 1],
    ]);
  });

  it('runs the same number of statements for 5, 25 and 100 rows (page + count), sorted by a link count too', async () => {
    const counts: number[] = [];
    for (const [i, limit] of [5, 25, 100].entries()) {
      // A new filter each time, so the row counter's cache never hides the count statement.
      const where = encodeURIComponent(`(Age,gt,${-i})`);
      const run = await statementsOf(baseId, external, `/api/v1/db/data/noco/${baseId}/People?limit=${limit}&where=${where}&sort=~-Skills`);
      expect(run.rows).toBe(limit);
      counts.push(run.count);
    }
    // One SELECT of the page (every computed value a correlated subquery) and one COUNT (plus pg's estimate).
    expect(counts).toEqual([withCount, withCount, withCount]);
  });

  it('pages through every row once, sorted and filtered by computed columns, with any subset of fields', async () => {
    for (const sort of ['~-Skills,Id', '-Score,Id', 'TeamName,-Label', '-SkillHours,TeamOrg,Id', '-SkillNames,Id']) {
      const seenIds: number[] = [];
      for (let offset = 0; offset < 120; offset += 25) {
        const res = await raw('GET', `/api/v1/db/data/noco/${baseId}/People?limit=25&offset=${offset}&sort=${encodeURIComponent(sort)}&fields=Id,Score`);
        expect(res.status).toBe(200);
        seenIds.push(...res.body.list.map((r: any) => r.Id));
      }
      expect([sort, [...seenIds].sort((a, b) => a - b)]).toEqual([sort, Array.from({ length: 120 }, (_, i) => i + 1)]);
    }
    const top = await raw('GET', `/api/v1/db/data/noco/${baseId}/People?limit=3&sort=-Score&where=${encodeURIComponent('(TeamName,eq,blue)')}&fields=Name,Label,SkillSum`);
    expect(top.body.list.map((r: any) => [r.Name, r.Label, Number(r.SkillSum)])).toEqual([['p117', 'p117 @ blue', 8], ['p119', 'p119 @ blue', 5], ['p115', 'p115 @ blue', 5]]);
    const nested = await raw('GET', `/api/v1/db/data/noco/${baseId}/Skills/1/mm/PeopleList?limit=5&sort=-Id`);
    expect(nested.status).toBe(200);
    expect(nested.body.list.map((r: any) => r.Name)).toEqual(['p117', 'p114', 'p111', 'p108', 'p105']);
  });

  it('runs one statement for a page of 5, 25 or 100 rows once the count is known', async () => {
    const counts: number[] = [];
    for (const limit of [5, 25, 100]) {
      const path = `/api/v1/db/data/noco/${baseId}/People?limit=${limit}&where=${encodeURIComponent('(Age,gt,0)')}`;
      await raw('GET', path);
      counts.push((await statementsOf(baseId, external, path)).count);
    }
    expect(counts).toEqual([1, 1, 1]);
  });
});
