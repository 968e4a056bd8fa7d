import knex, { type Knex } from 'knex';
import type { TestStack } from '@tabula/testing';
import { startCommentStack, type Reply, type TabulaClient, type TestUser } from './comments-e2e.helpers';

/**
 * Every item of the comments issue's "Bad input" list: a 4xx with the error
 * body and nothing written (comments and outbox rows counted before and after);
 * HTML/script and SQL text are not bad input: stored and returned byte-for-byte.
 */
let stack: TestStack;
let api: TabulaClient;
let db: Knex;
let owner: TestUser;
let editor: TestUser;
let t: { baseId: string; tableId: string; rowIds: string[] };
let mine: string;

const written = async () => {
  const [c] = await db.withSchema('comments').table('comments').count({ n: '*' });
  const [o] = await db.withSchema('comments').table('outbox').count({ n: '*' });
  const [live] = await db.withSchema('comments').table('comments').where({ is_deleted: false }).whereNull('resolved_by').count({ n: '*' });
  const text = await db.withSchema('comments').table('comments').select(db.raw("string_agg(comment, '|' ORDER BY id) AS t")).first();
  return `${c.n}/${o.n}/${live.n}/${text?.t}`;
};

/** Sends a bad request and checks status, error body and that nothing changed. */
async function refused(send: () => Promise<Reply>, status: number, code?: string): Promise<Reply> {
  const before = await written();
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ error: code ?? expect.any(String), message: expect.any(String), msg: expect.any(String) }));
  expect(await written()).toBe(before);
  return res;
}

const create = (body: unknown) => api.call('POST', '/api/v1/db/meta/comments', owner.token, body);

beforeAll(async () => {
  ({ stack, api } = await startCommentStack());
  db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  const root = await api.signup('super');
  owner = await api.signup('owner');
  editor = await api.signup('editor');
  t = await api.baseWithTable(root, 2, owner);
  await api.addMember(root, t.baseId, editor, 'editor');
  mine = (await api.comment(owner.token, t.tableId, t.rowIds[0], 'parent')).body.id;
}, 120_000);
afterAll(async () => { await db?.destroy(); await stack?.stop(); });

describe('comments: bad input', () => {
  it('empty or 3001-character comment (3000 is accepted)', async () => {
    await refused(() => create({ fk_model_id: t.tableId, row_id: t.rowIds[0], comment: '' }), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => create({ fk_model_id: t.tableId, row_id: t.rowIds[0], comment: 'x'.repeat(3001) }), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => api.call('PATCH', `/api/v2/comments/${mine}`, owner.token, { comment: '' }), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => api.call('PATCH', `/api/v1/db/meta/comment/${mine}`, owner.token, { comment: 'y'.repeat(3001) }), 400, 'ERR_INVALID_REQUEST_BODY');
    const max = await create({ fk_model_id: t.tableId, row_id: t.rowIds[1], comment: 'é'.repeat(3000) });
    expect(max.status).toBe(200);
    expect(max.body.comment).toHaveLength(3000);
  });

  it('missing fk_model_id or row_id', async () => {
    const res = await refused(() => create({ row_id: t.rowIds[0], comment: 'x' }), 400, 'ERR_INVALID_REQUEST_BODY');
    expect(res.body.message).toMatch(/fk_model_id/);
    expect((await refused(() => create({ fk_model_id: t.tableId, comment: 'x' }), 400, 'ERR_INVALID_REQUEST_BODY')).body.message).toMatch(/row_id/);
    await refused(() => api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${t.tableId}`, owner.token), 400, 'ERR_INVALID_REQUEST_BODY');
  });

  it('unknown table, unknown record, malformed JSON', async () => {
    await refused(() => create({ fk_model_id: 'm_does_not_exist', row_id: '1', comment: 'x' }), 404, 'ERR_TABLE_NOT_FOUND');
    await refused(() => api.call('POST', '/api/v2/tables/m_nope/records/1/comments', owner.token, { comment: 'x' }), 404, 'ERR_TABLE_NOT_FOUND');
    await refused(() => create({ fk_model_id: t.tableId, row_id: '987654', comment: 'x' }), 404, 'ERR_RECORD_NOT_FOUND');
    await refused(() => create({ fk_model_id: t.tableId, row_id: 'not-a-number', comment: 'x' }), 404, 'ERR_RECORD_NOT_FOUND');
    await refused(() => api.call('POST', '/api/v1/db/meta/comments', owner.token, undefined, '{"comment":'), 400, 'ERR_INVALID_JSON');
  });

  it('unknown or deleted parent; parent of another record', async () => {
    const base = { fk_model_id: t.tableId, row_id: t.rowIds[0], comment: 'reply' };
    await refused(() => create({ ...base, parent_comment_id: 'com_unknown' }), 404, 'ERR_COMMENT_NOT_FOUND');
    const gone = (await api.comment(owner.token, t.tableId, t.rowIds[0], 'to delete')).body.id;
    expect((await api.call('DELETE', `/api/v2/comments/${gone}`, owner.token)).status).toBe(200);
    await refused(() => create({ ...base, parent_comment_id: gone }), 404, 'ERR_COMMENT_NOT_FOUND');
    await refused(() => create({ ...base, row_id: t.rowIds[1], parent_comment_id: mine }), 400, 'ERR_INVALID_REQUEST_BODY');
  });

  it("editing someone else's comment; resolving as editor", async () => {
    await refused(() => api.call('PATCH', `/api/v1/db/meta/comment/${mine}`, editor.token, { comment: 'mine now' }), 403, 'ERR_FORBIDDEN');
    await refused(() => api.call('PATCH', `/api/v2/comments/${mine}`, editor.token, { comment: 'mine now' }), 403, 'ERR_FORBIDDEN');
    await refused(() => api.call('POST', `/api/v2/comments/${mine}/resolve`, editor.token), 403, 'ERR_FORBIDDEN');
  });

  it('ids not an array or over 1000 entries (1000 is accepted)', async () => {
    const count = (qs: string) => api.call('GET', `/api/v1/db/meta/comments/count?fk_model_id=${t.tableId}&${qs}`, owner.token);
    await refused(() => count(`ids=${encodeURIComponent('{"a":1}')}`), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => count('ids[a]=1'), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => count(`ids=${encodeURIComponent('[[1]]')}`), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => count('ids=%00'), 400, 'ERR_INVALID_REQUEST_BODY');
    await refused(() => count('x=1'), 400, 'ERR_INVALID_REQUEST_BODY');
    const many = Array.from({ length: 1001 }, (_, i) => `ids=${i}`).join('&');
    expect((await refused(() => count(many), 400, 'ERR_INVALID_REQUEST_BODY')).body.message).toMatch(/1000/);
    const ok = await count(Array.from({ length: 1000 }, (_, i) => `ids[]=${i}`).join('&'));
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body)).toHaveLength(1000);
    expect((await count(`ids=${encodeURIComponent(JSON.stringify([t.rowIds[0], 'zz']))}`)).body).toEqual({ [t.rowIds[0]]: 1, zz: 0 });
  });

  it('non-string comment (number, object, array, null, boolean) and text PostgreSQL cannot store (NUL)', async () => {
    for (const comment of [42, { text: 'x' }, ['x'], null, true, 'NUL \u0000 inside']) {
      await refused(() => create({ fk_model_id: t.tableId, row_id: t.rowIds[0], comment }), 400, 'ERR_INVALID_REQUEST_BODY');
    }
    await refused(() => api.call('PATCH', `/api/v2/comments/${mine}`, owner.token, { comment: 7 }), 400, 'ERR_INVALID_REQUEST_BODY');
  });

  it('HTML/script and SQL text are stored as text and returned byte-for-byte', async () => {
    const texts = [
      '<script>alert("x")</script><img src=x onerror=alert(1)>',
      "'); DROP TABLE comments.comments; --",
      "Robert'); DELETE FROM comments.comments WHERE ('1'='1",
      '  leading and trailing spaces, tabs\t, newlines\n\r\n, NUL-free unicode 🚀 ‮ & &amp; %s ${x} {{ x }}  ',
    ];
    for (const text of texts) {
      const res = await create({ fk_model_id: t.tableId, row_id: t.rowIds[1], comment: text });
      expect(res.status).toBe(200);
      expect(res.body.comment).toBe(text);
      const stored = await db.withSchema('comments').table('comments').where({ id: res.body.id }).first();
      expect(stored.comment).toBe(text);
    }
    const raw = await fetch(`${api.url}/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=${t.rowIds[1]}&limit=100`, { headers: { 'xc-auth': owner.token } });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const listed = ((await raw.json()) as { list: { comment: string }[] }).list.map((c) => c.comment);
    expect(listed).toEqual(expect.arrayContaining(texts));
    expect(await db.schema.withSchema('comments').hasTable('comments')).toBe(true);
  });
});
