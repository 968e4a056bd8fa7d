import type { Knex } from 'knex';
import { Api } from 'nocodb-sdk';
import type { ServiceDefinition } from '@tabula/runtime';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * No N+1: a page of records with 2 link columns, 3 lookups, 1 rollup and 2
 * formulas costs the same number of SQL statements on the user tables
 * whatever its size (knex 'query' events of the data database, counted when
 * they name the base's schema).
 */
let stack: TestStack;
let api: Api<unknown>;
let token: string;
let baseId: string;
let dataDb: Knex | undefined;

const services: ServiceDefinition<any, any>[] = allServices.map((d) => (d.name !== 'data' ? d : {
  ...d, buildPorts: (common: { dataDb: Knex }, config: unknown) => { dataDb = common.dataDb; return d.buildPorts(common as never, config as never); },
}));

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function statementsOf(path: string): Promise<{ count: number; rows: number }> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => { if (q.sql.includes(baseId)) seen.push(q.sql); };
  dataDb!.on('query', listener);
  try {
    const res = await raw('GET', path);
    expect(res.status).toBe(200);
    return { count: seen.length, rows: res.body.list.length };
  } finally {
    dataDb!.removeListener('query', listener);
  }
}

beforeAll(async () => {
  stack = await startTestStack(services);
  token = (await new TestApi(stack.url).signUp('e2e', 'relations-n1@example.com')).token;
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  baseId = (await api.base.create({ title: 'N+1' })).id as string;
  const table = async (title: string, extra: object[] = []) => (await api.dbTable.create(baseId, {
    title, table_name: title.toLowerCase(),
    columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, ...extra],
  } as never)).id as string;
  const teams = await table('Teams', [{ column_name: 'budget', title: 'Budget', uidt: 'Number' }]);
  const skills = await table('Skills', [{ column_name: 'level', title: 'Level', uidt: 'Number' }]);
  const people = await table('People', [{ column_name: 'age', title: 'Age', uidt: 'Number' }]);
  const col = async (body: object) => (await raw('POST', `/api/v1/db/meta/tables/${people}/columns`, body)).body;
  const team = await col({ title: 'Team', uidt: 'LinkToAnotherRecord', parentId: people, childId: teams, type: 'bt' });
  const skill = await col({ title: 'Skills', uidt: 'Links', parentId: people, childId: skills, type: 'mm' });
  const metaOf = async (id: string) => (await raw('GET', `/api/v1/db/meta/tables/${id}`)).body.columns as { id: string; title: string }[];
  const [teamCols, skillCols] = [await metaOf(teams), await metaOf(skills)];
  const id = (cols: { id: string; title: string }[], title: string) => cols.find((c) => c.title === title)!.id;
  await col({ title: 'TeamName', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: id(teamCols, 'Name') });
  await col({ title: 'TeamBudget', uidt: 'Lookup', fk_relation_column_id: team.id, fk_lookup_column_id: id(teamCols, 'Budget') });
  await col({ title: 'SkillNames', uidt: 'Lookup', fk_relation_column_id: skill.id, fk_lookup_column_id: id(skillCols, 'Name') });
  await col({ title: 'SkillSum', uidt: 'Rollup', fk_relation_column_id: skill.id, fk_rollup_column_id: id(skillCols, 'Level'), rollup_function: 'sum' });
  await col({ title: 'Score', uidt: 'Formula', formula_raw: '{SkillSum} + {Age}' });
  await col({ title: 'Label', uidt: 'Formula', formula_raw: "CONCAT({Name}, ' @ ', {TeamName})" });
  await api.dbTableRow.bulkCreate('noco', baseId, 'Teams', [{ Name: 'red', Budget: 10 }, { Name: 'blue', Budget: 20 }]);
  await api.dbTableRow.bulkCreate('noco', baseId, 'Skills', [{ Name: 'sql', Level: 3 }, { Name: 'ts', Level: 5 }]);
  await api.dbTableRow.bulkCreate('noco', baseId, 'People', Array.from({ length: 60 }, (_, i) => ({
    Name: `p${i}`, Age: 20 + i, Team: [(i % 2) + 1], Skills: i % 3 === 0 ? [1, 2] : [2],
  })));
}, 180_000);
afterAll(async () => { await stack?.stop(); });

describe('statements per page', () => {
  it('computes links, lookups, rollups and formulas correctly', async () => {
    const page = (await raw('GET', `/api/v1/db/data/noco/${baseId}/People?limit=3&sort=Id`)).body.list;
    expect(page.map((r: any) => [r.Team, r.Skills, r.TeamName, r.TeamBudget, r.SkillNames, r.SkillSum, r.Score, r.Label])).toEqual([
      [{ Id: 1, Name: 'red' }, 2, 'red', 10, ['sql', 'ts'], 8, 28, 'p0 @ red'],
      [{ Id: 2, Name: 'blue' }, 1, 'blue', 20, ['ts'], 5, 26, 'p1 @ blue'],
      [{ Id: 1, Name: 'red' }, 1, 'red', 10, ['ts'], 5, 27, 'p2 @ red'],
    ]);
  });

  it('runs the same number of statements for 5, 25 and 50 rows (page + count), sorted by a link count too', async () => {
    const counts: number[] = [];
    for (const [i, limit] of [5, 25, 50].entries()) {
      // A new filter each time, so the row counter's cache never hides the count statement.
      const where = encodeURIComponent(`(Age,gt,${-i})`);
      const run = await statementsOf(`/api/v1/db/data/noco/${baseId}/People?limit=${limit}&where=${where}&sort=~-Skills`);
      expect(run.rows).toBe(limit);
      counts.push(run.count);
    }
    // One SELECT of the page (every computed value a correlated subquery) and one COUNT.
    expect(counts).toEqual([2, 2, 2]);
  });
});
