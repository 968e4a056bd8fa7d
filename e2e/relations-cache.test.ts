import knexFactory from 'knex';
import { Api } from 'nocodb-sdk';
import { ColumnChangedSchema, decodeEvent } from '@tabula/contracts';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * Column events carry relation metadata, and the data service's cached table
 * of People (whose link and lookup read Teams' metadata) follows every schema
 * change of Teams at once: the read right after the meta call sees it.
 */
let stack: TestStack;
let token: string;
let api: Api<unknown>;
let baseId: string;
let people: string;
let teams: string;

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const page = async () => {
  const res = await raw('GET', `/api/v1/db/data/noco/${baseId}/People?sort=Id`);
  expect(res.status).toBe(200);
  return res.body.list as Record<string, unknown>[];
};
const columnOf = async (tableId: string, title: string) => (await raw('GET', `/api/v1/db/meta/tables/${tableId}`)).body.columns.find((c: any) => c.title === title);

beforeAll(async () => {
  stack = await startTestStack(allServices);
  const signup = await fetch(`${stack.url}/api/v1/auth/user/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'relations-cache@example.com', password: 'Password123!' }),
  });
  token = ((await signup.json()) as { token: string }).token;
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  baseId = (await api.base.create({ title: 'Cache' })).id as string;
  const table = async (title: string, extra: object[]) => (await api.dbTable.create(baseId, {
    title, table_name: title.toLowerCase(), columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, ...extra],
  } as never)).id as string;
  teams = await table('Teams', [{ column_name: 'budget', title: 'Budget', uidt: 'Number' }]);
  people = await table('People', []);
  await api.dbTableRow.bulkCreate('noco', baseId, 'Teams', [{ Name: 'red', Budget: 10 }, { Name: 'blue', Budget: 20 }]);
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('relation metadata in column events and the data service cache', () => {
  it('link, lookup and rollup column events carry their relation metadata', async () => {
    const link = (await raw('POST', `/api/v1/db/meta/tables/${people}/columns`, { title: 'Team', uidt: 'LinkToAnotherRecord', parentId: people, childId: teams, type: 'bt' })).body;
    const skills = (await raw('POST', `/api/v1/db/meta/tables/${people}/columns`, { title: 'Mates', uidt: 'Links', parentId: people, childId: teams, type: 'mm' })).body;
    const name = await columnOf(teams, 'Name');
    const budget = await columnOf(teams, 'Budget');
    const lookup = (await raw('POST', `/api/v1/db/meta/tables/${people}/columns`, { title: 'TeamName', uidt: 'Lookup', fk_relation_column_id: link.id, fk_lookup_column_id: name.id })).body;
    const rollup = (await raw('POST', `/api/v1/db/meta/tables/${people}/columns`, { title: 'MatesBudget', uidt: 'Rollup', fk_relation_column_id: skills.id, fk_rollup_column_id: budget.id, rollup_function: 'sum' })).body;
    const k = knexFactory({ client: 'pg', connection: stack.database.url });
    try {
      const rows = await k.withSchema('meta').from('outbox').where('type', 'meta.column.created').select('payload');
      const events = rows.map((r) => decodeEvent(ColumnChangedSchema, new Uint8Array(r.payload as Buffer)));
      const of = (id: string) => events.find((e) => e.columnId === id)!;
      expect(of(link.id)).toMatchObject({ tableId: people, uidt: 'LinkToAnotherRecord', relation: {
        type: 'bt', relatedTableId: teams, childColumnId: link.colOptions.fk_child_column_id, parentColumnId: link.colOptions.fk_parent_column_id, mmTableId: '',
      } });
      expect(of(skills.id).relation).toMatchObject({
        type: 'mm', relatedTableId: teams, mmTableId: skills.colOptions.fk_mm_model_id,
        mmChildColumnId: skills.colOptions.fk_mm_child_column_id, mmParentColumnId: skills.colOptions.fk_mm_parent_column_id,
      });
      // The reverse column on Teams names People.
      const reverse = events.find((e) => e.tableId === teams && e.uidt === 'LinkToAnotherRecord');
      expect(reverse?.relation).toMatchObject({ type: 'hm', relatedTableId: people });
      expect(of(lookup.id)).toMatchObject({ uidt: 'Lookup', relation: { type: 'bt', relatedTableId: teams, relationColumnId: link.id, lookupColumnId: name.id } });
      expect(of(rollup.id).relation).toMatchObject({ type: 'mm', relatedTableId: teams, relationColumnId: skills.id, rollupColumnId: budget.id, rollupFunction: 'sum' });
      expect(of(name.id)).toBeUndefined();
      const plain = rows.length;
      expect(plain).toBeGreaterThan(4);
    } finally {
      await k.destroy();
    }
    await api.dbTableRow.bulkCreate('noco', baseId, 'People', [{ Name: 'ann', Team: { Id: 1 } }, { Name: 'bob', Team: { Id: 2 } }]);
    expect((await page()).map((r) => [r.Team, r.TeamName])).toEqual([[{ Id: 1, Name: 'red' }, 'red'], [{ Id: 2, Name: 'blue' }, 'blue']]);
  });

  it('renaming the looked-up column of the related table physically is seen by the next read of People', async () => {
    const name = await columnOf(teams, 'Name');
    const renamed = await raw('PATCH', `/api/v1/db/meta/columns/${name.id}`, { title: 'Label', column_name: 'label' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.column_name).toBe('label');
    // The cached People still named teams.name: a stale cache answers 500 here.
    expect((await page()).map((r) => [r.Team, r.TeamName])).toEqual([[{ Id: 1, Label: 'red' }, 'red'], [{ Id: 2, Label: 'blue' }, 'blue']]);
  });

  it('a new primary value column of the related table shows in the link values at once', async () => {
    expect((await raw('POST', `/api/v1/db/meta/tables/${teams}/columns`, { title: 'Code', column_name: 'code', uidt: 'SingleLineText' })).status).toBe(200);
    await api.dbTableRow.update('noco', baseId, 'Teams', 1, { Code: 'R' });
    const code = await columnOf(teams, 'Code');
    expect((await raw('POST', `/api/v1/db/meta/columns/${code.id}/primary`)).status).toBe(200);
    expect((await page()).map((r) => r.Team)).toEqual([{ Id: 1, Code: 'R' }, { Id: 2, Code: null }]);
  });

  it('deleting a looked-up column is refused while a lookup uses it; once allowed, People reads without it at once', async () => {
    const label = await columnOf(teams, 'Label');
    const refused = await raw('DELETE', `/api/v1/db/meta/columns/${label.id}`);
    expect([refused.status, refused.body.msg]).toEqual([400, "Column 'Label' is used by Lookup 'TeamName': delete those first"]);
    expect((await page()).map((r) => r.TeamName)).toEqual(['red', 'blue']);
    expect((await raw('DELETE', `/api/v1/db/meta/columns/${(await columnOf(people, 'TeamName')).id}`)).status).toBe(200);
    expect((await raw('DELETE', `/api/v1/db/meta/columns/${label.id}`)).status).toBe(200);
    const rows = await page();
    expect(rows.map((r) => [r.Name, r.Team, 'TeamName' in r])).toEqual([['ann', { Id: 1, Code: 'R' }, false], ['bob', { Id: 2, Code: null }, false]]);
  });
});
