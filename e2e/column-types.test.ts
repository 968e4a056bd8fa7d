import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { describeVariant, sourceVariants } from './source-variants.helpers';

/**
 * Column types read as NocoDB 0.301.3 reads them (its answers to the same
 * requests: scripts/compat/depth-compare.ts types, docs/depth.md): CreatedBy and
 * LastModifiedBy as the writing user, User (and Collaborator) cells written by e-mail, `{email}` or
 * `{id}` and checked against the base's members, QrCode and Barcode as their
 * source column's value, a url Button as `{type, label, url}` with its formula
 * applied, UUID filled on insert, Decimal and Currency keeping every digit,
 * an attachment by external url kept as given; on the default PostgreSQL
 * source, an external SQLite file and an external MariaDB database.
 */
let stack: TestStack;
let token: string;
let memberToken: string;
let ownerId: string;
let memberId: string;
const cleanups: (() => Promise<void>)[] = [];

async function raw(method: string, path: string, body?: unknown, as = token): Promise<{ status: number; body: any }> {
  const res = await new TestApi(stack.url).call(method, path, { body, headers: { 'xc-auth': as } });
  return { status: res.status, body: res.body };
}

const variants = sourceVariants('types', cleanups);

beforeAll(async () => {
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
  const api = new TestApi(stack.url);
  const owner = await api.signUp('owner', 'types-owner@example.com');
  token = owner.token;
  ownerId = owner.id;
  const member = await api.signUp('member', 'types-member@example.com');
  memberToken = member.token;
  memberId = member.id;
  await api.signUp('stranger', 'types-stranger@example.com');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  for (const c of cleanups) await c().catch(() => undefined);
});

for (const variant of variants) describeVariant(variant.name, `column types on ${variant.name}`, () => {
  let base: string;
  let table: string;
  const records = async () => (await raw('GET', `/api/v2/tables/${table}/records?sort=Id`)).body.list as Record<string, any>[];

  beforeAll(async () => {
    const extra = await variant.body();
    if (!extra) throw new Error(`${variant.name}: no backend for this variant`);
    base = (await raw('POST', '/api/v1/db/meta/projects', { title: `Types ${variant.name}`, ...extra })).body.id;
    const invited = await raw('POST', `/api/v1/db/meta/projects/${base}/users`, { email: 'types-member@example.com', roles: 'editor' });
    expect(invited.status).toBe(200);
    const made = await raw('POST', `/api/v2/meta/bases/${base}/tables`, {
      title: 'Types', table_name: 'types', columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
        { column_name: 'num', title: 'Num', uidt: 'Number' },
        { column_name: 'dec', title: 'Dec', uidt: 'Decimal', meta: { precision: 4 } },
        { column_name: 'cur', title: 'Cur', uidt: 'Currency' },
        { column_name: 'uu', title: 'Uu', uidt: 'UUID' },
        { column_name: 'us', title: 'Us', uidt: 'User' },
        { column_name: 'co', title: 'Co', uidt: 'Collaborator' },
        { column_name: 'att', title: 'Att', uidt: 'Attachment' },
      ],
    });
    expect(made.status).toBe(200);
    table = made.body.id;
    const id = (title: string) => made.body.columns.find((c: { title: string }) => c.title === title).id;
    for (const c of [
      { title: 'CB', uidt: 'CreatedBy' }, { title: 'LMB', uidt: 'LastModifiedBy' },
      { title: 'QR', uidt: 'QrCode', fk_qr_value_column_id: id('Title') },
      { title: 'BC', uidt: 'Barcode', fk_barcode_value_column_id: id('Num') },
      { title: 'Go', uidt: 'Button', type: 'url', label: 'Open', formula_raw: "CONCAT('https://x.org/', {Title}, '/', {Num})" },
    ]) expect((await raw('POST', `/api/v2/meta/tables/${table}/columns`, c)).status).toBe(200);
  }, 120_000);

  it('refuses a code column without a source of this table and a url Button with a bad formula (400)', async () => {
    expect((await raw('POST', `/api/v2/meta/tables/${table}/columns`, { title: 'Q2', uidt: 'QrCode', fk_qr_value_column_id: 'cnothere' })).status).toBe(400);
    expect((await raw('POST', `/api/v2/meta/tables/${table}/columns`, { title: 'Q3', uidt: 'QrCode' })).status).toBe(400);
    expect((await raw('POST', `/api/v2/meta/tables/${table}/columns`, { title: 'B2', uidt: 'Button', type: 'url', formula_raw: 'CONCAT({Nope})' })).status).toBe(400);
    expect((await raw('POST', `/api/v2/meta/tables/${table}/columns`, { title: 'B3', uidt: 'Button', type: 'teleport' })).status).toBe(400);
  });

  it('reads CreatedBy / LastModifiedBy as the writing user, QrCode / Barcode as the source value, a url Button with its formula applied', async () => {
    const inserted = await raw('POST', `/api/v2/tables/${table}/records`, [{ Title: 'a b', Num: 7, Dec: 1.23456, Cur: 9.999 }, {}]);
    expect(inserted.status).toBe(200);
    const [one, two] = await records();
    const owner = { id: ownerId, email: 'types-owner@example.com', display_name: null, meta: null };
    expect(one).toMatchObject({ Title: 'a b', Num: 7, Dec: 1.23456, Cur: 9.999, CB: owner, LMB: owner, QR: 'a b', BC: 7 });
    expect(one.Go).toEqual({ type: 'url', label: 'Open', url: 'https://x.org/a b/7' });
    expect(two).toMatchObject({ QR: null, BC: null, CB: owner });
    expect(two.Go).toEqual({ type: 'url', label: 'Open', url: 'https://x.org//' });
    // UUID: filled on insert, one per row.
    expect(one.Uu).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(two.Uu).toMatch(/^[0-9a-f-]{36}$/);
    expect(one.Uu).not.toBe(two.Uu);
    // Another user's update: LastModifiedBy follows, CreatedBy stays.
    expect((await raw('PATCH', `/api/v2/tables/${table}/records`, [{ Id: one.Id, Title: 'c' }], memberToken)).status).toBe(200);
    const [after] = await records();
    expect(after.CB.id).toBe(ownerId);
    expect(after.LMB).toEqual({ id: memberId, email: 'types-member@example.com', display_name: null, meta: null });
    expect(after.QR).toBe('c');
  });

  // Collaborator is NocoDB's older name of User: the same cells.
  it.each(['Us', 'Co'])('User cells (%s): e-mails, {email}, [{id}]; read as lists of users; a non-member is refused and nothing is written', async (field) => {
    const ok = await raw('POST', `/api/v2/tables/${table}/records`, [
      { Title: `u1${field}`, [field]: 'types-owner@example.com' }, { Title: `u2${field}`, [field]: [{ id: memberId }, { email: 'TYPES-OWNER@example.com' }] },
      { Title: `u3${field}`, [field]: { email: 'types-member@example.com' } }, { Title: `u4${field}`, [field]: 'types-member@example.com, types-owner@example.com' },
    ]);
    expect(ok.status).toBe(200);
    const byTitle = new Map((await records()).map((r) => [r.Title, r[field]]));
    const ids = (t: string) => (byTitle.get(t) as { id: string }[]).map((u) => u.id);
    expect(ids(`u1${field}`)).toEqual([ownerId]);
    expect(ids(`u2${field}`)).toEqual([memberId, ownerId]);
    expect(ids(`u3${field}`)).toEqual([memberId]);
    expect(ids(`u4${field}`)).toEqual([memberId, ownerId]);
    expect(byTitle.get(`u3${field}`)).toEqual([{ id: memberId, email: 'types-member@example.com', display_name: null, meta: null }]);
    const before = (await records()).length;
    for (const bad of ['types-stranger@example.com', 'nobody@example.com', [{ id: 'us-none' }], 42, [{}]]) {
      const r = await raw('POST', `/api/v2/tables/${table}/records`, [{ Title: 'ok', [field]: 'types-owner@example.com' }, { Title: 'bad', [field]: bad }]);
      expect([r.status, r.body.error]).toEqual([400, 'ERR_INVALID_VALUE_FOR_FIELD']);
    }
    expect((await records()).length).toBe(before);
    const cleared = await raw('PATCH', `/api/v2/tables/${table}/records`, [{ Id: (await records()).find((r) => r.Title === `u1${field}`)!.Id, [field]: null }]);
    expect(cleared.status).toBe(200);
    expect((await records()).find((r) => r.Title === `u1${field}`)![field]).toBeNull();
  });

  it('an attachment by external url is kept as given, never signed', async () => {
    const item = { url: 'https://example.org/files/a.png', title: 'a.png', mimetype: 'image/png' };
    const r = await raw('POST', `/api/v2/tables/${table}/records`, [{ Title: 'att', Att: [item] }]);
    expect(r.status).toBe(200);
    const cell = (await records()).find((x) => x.Title === 'att')!.Att;
    expect(cell).toEqual([item]);
    for (const bad of [[{ url: 'javascript:alert(1)', title: 'x' }], [{ url: 'https://user:pw@example.org/a', title: 'x' }], [{ path: 'download/nothere/a.png', title: 'x' }]]) {
      expect((await raw('POST', `/api/v2/tables/${table}/records`, [{ Title: 'bad', Att: bad }])).status).toBe(400);
    }
  });
});
