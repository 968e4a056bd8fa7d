import { openApiTypes, validateOpenApi } from '@tabula/testing';
import { ALL_UIDTS, isPhysical } from '../src/ddl/uidt';
import { startMetaHarness, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
let h: MetaHarness;
let baseId: string;

/** One column of every physical uidt (the table's own ID column is made by meta). */
const columns = ALL_UIDTS.filter((uidt) => isPhysical(uidt) && uidt !== 'ID').map((uidt) => ({
  title: `Col ${uidt}`, uidt, ...(uidt.endsWith('Select') ? { colOptions: { options: [{ title: 'open' }, { title: 'done' }] } } : {}),
}));

beforeAll(async () => {
  h = await startMetaHarness();
  baseId = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'Typed' }).expect(200)).body.id;
  await h.http.post(`${P}/projects/${baseId}/tables`).set(h.superUser).send({ title: 'Every type', columns }).expect(200);
  await h.http.post(`${P}/projects/${baseId}/tables`).set(h.superUser).send({ title: 'every-type', table_name: 'second_table' }).expect(200);
});
afterAll(async () => { await h.stop(); });

describe("a base's swagger.json", () => {
  it('describes each table with its real columns and types, validates, and generates a typed client', async () => {
    const res = await h.http.get(`${P}/projects/${baseId}/swagger.json`).set(h.superUser).expect(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    expect(doc.openapi).toBe('3.1.0');
    const record = doc.components.schemas.EveryTypeRecord;
    for (const c of columns) expect(Object.keys(record.properties)).toContain(c.title);
    expect(record.properties['Col Checkbox']).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    expect(record.properties['Col SingleSelect']).toEqual({ anyOf: [{ type: 'string', enum: ['open', 'done'] }, { type: 'null' }] });
    expect(doc.components.schemas.EveryTypeRequest.properties).not.toHaveProperty('Id');
    expect(doc.components.schemas.EveryType2Record).toBeDefined();
    expect(Object.keys(doc.paths)).toContain(`/api/v1/db/data/noco/${baseId}/Every%20type/{rowId}`);

    await expect(validateOpenApi(doc)).resolves.toMatchObject({ valid: true });
    const types = await openApiTypes(doc);
    expect(types).toContain('EveryTypeRecord: {');
    expect(types).toMatch(/"Col Number"\?: number \| null;/);
  }, 120_000);

  it('is refused without a base role; the docs page is public HTML loading it', async () => {
    await h.http.get(`${P}/projects/${baseId}/swagger.json`).set(h.as({ id: 'usnobody0000001' })).expect(404);
    const page = await h.http.get(`${P}/projects/${baseId}/swagger`).expect(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain(`data-url="/api/v1/db/meta/projects/${baseId}/swagger.json"`);
  });
});
