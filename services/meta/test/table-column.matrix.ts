import type { MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';

/** Runs the table-and-column matrix against a base made by `makeBase` (default or external source). */
export function tableColumnMatrix(getHarness: () => MetaHarness, makeBase: () => Promise<string>): void {
  let h: MetaHarness;
  let baseId: string;
  let tableId: string;
  const su = () => h.superUser;

  beforeAll(async () => {
    h = getHarness();
    baseId = await makeBase();
  });

  it('creates a table with system columns, index, primary value and default grid view', async () => {
    const res = await h.http.post(`${P}/projects/${baseId}/tables`).set(su()).send({
      title: 'Orders', table_name: 'orders$x',
      columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { title: 'Name', uidt: 'SingleLineText' },
        { title: 'Qty', uidt: 'Number', rqd: true, cdf: '1' },
        { title: 'Select', uidt: 'SingleSelect', colOptions: { options: [{ title: 'a', color: '#ff0000' }, { title: 'b' }] } },
        { title: 'order', uidt: 'Checkbox' },
      ],
    });
    expect(res.status).toBe(200);
    tableId = res.body.id;
    expect(res.body.table_name).toBe('orders_x');
    const names = res.body.columns.map((c: { column_name: string }) => c.column_name);
    expect(names.slice(0, 6)).toEqual(['id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'nc_order']);
    expect(res.body.columns.find((c: { title: string }) => c.title === 'Name').pv).toBe(true);
    expect(Object.keys(res.body.columnsById)).toHaveLength(res.body.columns.length);
    expect(res.body.views).toHaveLength(1);
    expect(res.body.views[0]).toMatchObject({ type: 3, is_default: true });
  });

  it('adds, updates, renames and deletes columns of every supported type', async () => {
    const types = ['LongText', 'Email', 'URL', 'PhoneNumber', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Date',
      'DateTime', 'Time', 'Year', 'MultiSelect', 'Attachment', 'JSON', 'AutoNumber', 'User', 'GeoData', 'Geometry', 'UUID',
      'CreatedTime', 'QrCode', 'Barcode', 'AI'];
    const source = (await h.http.get(`${P}/tables/${tableId}`).set(su())).body.columns.find((c: { uidt: string }) => c.uidt === 'SingleLineText').id;
    // A code column needs the column it shows (NocoDB: 400 "Missing 'fk_qr_value_column_id'").
    const extra: Record<string, Record<string, string>> = { QrCode: { fk_qr_value_column_id: source }, Barcode: { fk_barcode_value_column_id: source } };
    for (const uidt of types) {
      const res = await h.http.post(`${P}/tables/${tableId}/columns`).set(su()).send({ title: `c_${uidt}`, uidt, ...extra[uidt] });
      expect([uidt, res.status]).toEqual([uidt, 200]);
      expect(res.body).toMatchObject({ title: `c_${uidt}`, uidt, fk_model_id: tableId });
    }
    const col = (await h.http.post(`${P}/tables/${tableId}/columns`).set(su()).send({ title: 'Num', uidt: 'SingleLineText' })).body;
    const renamed = await h.http.patch(`${P}/columns/${col.id}`).set(su()).send({ title: 'Num2', column_name: 'num_two' });
    expect(renamed.body).toMatchObject({ title: 'Num2', column_name: 'num_two' });
    const asNumber = await h.http.patch(`${P}/columns/${col.id}`).set(su()).send({ uidt: 'Number' });
    expect(asNumber.status).toBe(200);
    expect(asNumber.body.uidt).toBe('Number');
    await h.http.delete(`${P}/columns/${col.id}`).set(su()).expect(200);
    await h.http.get(`${P}/columns/${col.id}`).set(su()).expect(404);
  });

  it('refuses bad column input', async () => {
    const post = (body: object) => h.http.post(`${P}/tables/${tableId}/columns`).set(su()).send(body);
    expect((await post({ title: 'x', uidt: 'Nope' })).status).toBe(400);
    expect((await post({ uidt: 'Number' })).status).toBe(400);
    expect((await post({ title: 'x'.repeat(256), uidt: 'Number' })).status).toBe(400);
    expect((await post({ title: 'x', uidt: 'Number', description: 'd'.repeat(8193) })).status).toBe(400);
    expect((await post({ title: 'name', uidt: 'Number' })).status).toBe(400);
    expect((await post({ title: 'x', uidt: 'Number', cdf: 'abc' })).status).toBe(400);
    expect((await post({ title: 'x', uidt: 'SingleSelect', colOptions: { options: [{ color: '#fff' }] } })).status).toBe(400);
    expect((await post({ title: 'x', uidt: 'SingleSelect', colOptions: { options: [{ title: 'a', color: 'blue' }] } })).status).toBe(400);
    const links = await post({ title: 'x', uidt: 'Links' });
    expect(links.status).toBe(400);
    expect(links.body.msg).toContain('Links');
  });

  it('guards bulk ops with the columns hash', async () => {
    const { hash } = (await h.http.get(`${P}/tables/${tableId}/columns/hash`).set(su()).expect(200)).body;
    const ok = await h.http.post(`${P}/tables/${tableId}/columns/bulk`).set(su())
      .send({ hash, ops: [{ op: 'add', column: { title: 'Bulk1', uidt: 'Number' } }] });
    expect(ok.status).toBe(200);
    const stale = await h.http.post(`${P}/tables/${tableId}/columns/bulk`).set(su())
      .send({ hash, ops: [{ op: 'add', column: { title: 'Bulk2', uidt: 'Number' } }] });
    expect(stale.status).toBe(409);
    const table = (await h.http.get(`${P}/tables/${tableId}`).set(su())).body;
    expect(table.columns.some((c: { title: string }) => c.title === 'Bulk2')).toBe(false);
  });

  it('sets the primary value, renames and deletes the table', async () => {
    const table = (await h.http.get(`${P}/tables/${tableId}`).set(su())).body;
    const qty = table.columns.find((c: { title: string }) => c.title === 'Qty');
    expect((await h.http.post(`${P}/columns/${qty.id}/primary`).set(su())).body).toEqual({ success: true });
    await h.http.patch(`${P}/tables/${tableId}`).set(su()).send({ title: 'Orders2' }).expect(200);
    await h.http.patch(`${P}/tables/${tableId}`).set(su()).send({ table_name: 'orders_two' }).expect(200);
    const after = (await h.http.get(`${P}/tables/${tableId}`).set(su())).body;
    expect(after).toMatchObject({ title: 'Orders2', table_name: 'orders_two' });
    expect(after.columns.find((c: { title: string }) => c.title === 'Qty').pv).toBe(true);
    const list = (await h.http.get(`${P}/projects/${baseId}/tables`).set(su())).body;
    expect(list.pageInfo.totalRows).toBeGreaterThanOrEqual(1);
    expect((await h.http.delete(`${P}/tables/${tableId}`).set(su())).body).toBe(true);
    await h.http.get(`${P}/tables/${tableId}`).set(su()).expect(404);
  });
}
