import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

let stack: TestStack;
let api: Api<unknown>;

beforeAll(async () => {
  stack = await startTestStack(allServices);
  const { token } = await new TestApi(stack.url).signUp('e2e', 'meta-sdk@example.com');
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
});
afterAll(async () => { await stack.stop(); });

describe('meta through nocodb-sdk', () => {
  it('base, table, column, view and sort CRUD', async () => {
    const base = await api.base.create({ title: 'SdkBase' });
    expect(base.id).toMatch(/^p/);
    const bases = await api.base.list();
    expect(bases.list.map((b) => b.id)).toContain(base.id);
    expect((await api.base.read(base.id!)).title).toBe('SdkBase');
    expect(await api.base.update(base.id!, { title: 'SdkBase2' })).toBe(1);

    const table = await api.dbTable.create(base.id!, {
      title: 'Items', table_name: 'items',
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
    } as never);
    expect((await api.dbTable.list(base.id!)).list.map((t) => t.id)).toContain(table.id);
    await api.dbTable.update(table.id!, { title: 'Items2' } as never);
    expect((await api.dbTable.read(table.id!)).title).toBe('Items2');

    const col = (await api.dbTableColumn.create(table.id!, { title: 'Qty', uidt: 'Number' } as never)) as unknown as { id: string };
    await api.dbTableColumn.update(col.id, { title: 'Quantity', uidt: 'Number' } as never);
    const views = await api.dbView.list(table.id!);
    const sort = await api.dbTableSort.create(views.list[0].id!, { fk_column_id: col.id, direction: 'desc' } as never);
    expect((await api.dbTableSort.list(views.list[0].id!)).list).toHaveLength(1);
    await api.dbTableSort.delete((sort as unknown as { id: string }).id);
    await api.dbView.gridCreate(table.id!, { title: 'Grid 2' } as never);
    await api.dbTableColumn.delete(col.id);
    await api.dbTable.delete(table.id!);
    expect(await api.base.delete(base.id!)).toBe(true);
  });
});
