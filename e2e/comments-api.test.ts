import knex, { type Knex } from 'knex';
import { CommentChangedSchema, decodeEvent } from '@tabula/contracts';
import { startCommentStack, eventually, type TabulaClient, type TestUser } from './comments-e2e.helpers';
import type { TestStack } from '@tabula/testing';

let stack: TestStack;
let api: TabulaClient;
let db: Knex;
let root: TestUser;
let owner: TestUser;
let t: { baseId: string; tableId: string; rowIds: string[] };

beforeAll(async () => {
  ({ stack, api } = await startCommentStack());
  db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  root = await api.signup('super');
  owner = await api.signup('owner');
  t = await api.baseWithTable(root, 3, owner);
}, 120_000);
afterAll(async () => { await db?.destroy(); await stack?.stop(); });

describe('comments API', () => {
  it('creates a comment with every field of the spec and lists it (v1 and v2)', async () => {
    const res = await api.comment(owner.token, t.tableId, t.rowIds[0], 'first');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^com[0-9a-z]{14}$/), fk_model_id: t.tableId, row_id: t.rowIds[0], comment: 'first',
      parent_comment_id: null, source_id: expect.stringMatching(/^b/), fk_workspace_id: null, base_id: t.baseId,
      created_by: owner.id, created_by_email: owner.email, resolved_by: null, resolved_by_email: null,
      is_deleted: false, is_edited: false, created_at: expect.any(String), updated_at: expect.any(String),
    });
    const v1 = await api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=${t.rowIds[0]}`, owner.token);
    expect(v1.status).toBe(200);
    expect(v1.body.list).toEqual([res.body]);
    expect(v1.body.pageInfo).toEqual({ totalRows: 1, page: 1, pageSize: 25, isFirstPage: true, isLastPage: true });
    const v2 = await api.call('GET', `/api/v2/tables/${t.tableId}/records/${t.rowIds[0]}/comments`, owner.token);
    expect(v2.body).toEqual(v1.body);
  });

  it('orders by created_at ascending, pages with limit/offset, replies through parent_comment_id', async () => {
    const row = t.rowIds[1];
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await api.comment(owner.token, t.tableId, row, `c${i}`)).body.id);
    const reply = await api.call('POST', `/api/v2/tables/${t.tableId}/records/${row}/comments`, owner.token, { comment: 'reply', parent_comment_id: ids[0] });
    expect(reply.status).toBe(200);
    expect(reply.body.parent_comment_id).toBe(ids[0]);
    const replyToReply = await api.comment(owner.token, t.tableId, row, 'deeper', { parent_comment_id: reply.body.id });
    expect(replyToReply.body.parent_comment_id).toBe(reply.body.id);
    const page = await api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=${row}&limit=2&offset=2`, owner.token);
    expect(page.body.list.map((c: { comment: string }) => c.comment)).toEqual(['c2', 'c3']);
    expect(page.body.pageInfo).toEqual({ totalRows: 7, page: 2, pageSize: 2, isFirstPage: false, isLastPage: false });
    const all = await api.call('GET', `/api/v2/tables/${t.tableId}/records/${row}/comments?limit=100`, owner.token);
    expect(all.body.list.map((c: { comment: string }) => c.comment)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'reply', 'deeper']);
  });

  it('edits set is_edited, deletes are soft (hidden from list and count, kept stored)', async () => {
    const row = t.rowIds[2];
    const c = (await api.comment(owner.token, t.tableId, row, 'draft')).body;
    const edited = await api.call('PATCH', `/api/v1/db/meta/comment/${c.id}`, owner.token, { comment: 'final', fk_model_id: t.tableId });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: c.id, comment: 'final', is_edited: true });
    const v2edit = await api.call('PATCH', `/api/v2/comments/${c.id}`, owner.token, { comment: 'final 2' });
    expect(v2edit.body.comment).toBe('final 2');
    const count = () => api.call('GET', `/api/v1/db/meta/comments/count?fk_model_id=${t.tableId}&ids=${row}&ids=999999`, owner.token);
    expect((await count()).body).toEqual({ [row]: 1, 999999: 0 });
    const del = await api.call('DELETE', `/api/v1/db/meta/comment/${c.id}`, owner.token);
    expect(del).toEqual({ status: 200, body: { success: true } });
    expect((await count()).body).toEqual({ [row]: 0, 999999: 0 });
    const list = await api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=${row}`, owner.token);
    expect(list.body.list).toEqual([]);
    const stored = await db.withSchema('comments').table('comments').where({ id: c.id }).first();
    expect(stored).toMatchObject({ is_deleted: true, comment: 'final 2' });
    expect((await api.call('DELETE', `/api/v2/comments/${c.id}`, owner.token)).status).toBe(404);
    expect((await api.call('PATCH', `/api/v2/comments/${c.id}`, owner.token, { comment: 'x' })).status).toBe(404);
  });

  it('count answers 1000 long ids (uuid-sized, ~44 KB of query string) through the gateway', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd`);
    const res = await api.call('GET', `/api/v1/db/meta/comments/count?fk_model_id=${t.tableId}&${ids.map((id) => `ids[]=${id}`).join('&')}`, owner.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toHaveLength(1000);
    expect(Object.values(res.body).every((n) => n === 0)).toBe(true);
  });

  it('resolve sets resolved_by/_email; the body flag unresolves; both idempotent', async () => {
    const c = (await api.comment(owner.token, t.tableId, t.rowIds[0], 'to resolve')).body;
    const r1 = await api.call('POST', `/api/v2/comments/${c.id}/resolve`, owner.token);
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({ resolved_by: owner.id, resolved_by_email: owner.email });
    expect((await api.call('POST', `/api/v2/comments/${c.id}/resolve`, owner.token)).body.resolved_by).toBe(owner.id);
    const un = await api.call('POST', `/api/v2/comments/${c.id}/resolve`, owner.token, { resolved: false });
    expect(un.body).toMatchObject({ resolved_by: null, resolved_by_email: null });
  });

  it('publishes comments.comment.* through the outbox in the comments schema (protobuf)', async () => {
    const c = (await api.comment(owner.token, t.tableId, t.rowIds[0], 'evented')).body;
    await api.call('PATCH', `/api/v2/comments/${c.id}`, owner.token, { comment: 'evented 2' });
    await api.call('POST', `/api/v2/comments/${c.id}/resolve`, owner.token);
    await api.call('DELETE', `/api/v2/comments/${c.id}`, owner.token);
    const rows = await db.withSchema('comments').table('outbox').orderBy('seq');
    const mine = rows.map((r) => ({ type: r.type as string, key: r.key as string, msg: decodeEvent(CommentChangedSchema, new Uint8Array(r.payload)) }))
      .filter((e) => e.msg.commentId === c.id);
    expect(mine.map((e) => e.type)).toEqual(['comments.comment.created', 'comments.comment.updated', 'comments.comment.resolved', 'comments.comment.deleted']);
    expect(mine[0]).toMatchObject({ key: t.tableId, msg: { tableId: t.tableId, rowId: t.rowIds[0], comment: 'evented', baseId: t.baseId, schemaVersion: 1 } });
    expect(mine[2].msg.resolved).toBe(true);
    await eventually(async () => Number((await db.withSchema('comments').table('outbox').whereNull('published_at').count({ n: '*' }))[0].n) === 0);
  });

  it("multi-tenancy: another base's comment id is 404, never 403; its table answers as a missing one", async () => {
    const stranger = await api.signup('stranger');
    const other = await api.baseWithTable(root, 1, stranger);
    const theirs = (await api.comment(stranger.token, other.tableId, other.rowIds[0], 'private')).body;
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/db/meta/comment/${theirs.id}`, { comment: 'x' }], ['DELETE', `/api/v1/db/meta/comment/${theirs.id}`, undefined],
      ['PATCH', `/api/v2/comments/${theirs.id}`, { comment: 'x' }], ['DELETE', `/api/v2/comments/${theirs.id}`, undefined],
      ['POST', `/api/v2/comments/${theirs.id}/resolve`, undefined],
    ] as const) {
      const res = await api.call(method, path, owner.token, body);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'ERR_COMMENT_NOT_FOUND']);
    }
    const list = await api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${other.tableId}&row_id=${other.rowIds[0]}`, owner.token);
    expect([list.status, list.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    const token = await api.baseToken(owner, t.baseId);
    const viaToken = await api.comment(token, other.tableId, other.rowIds[0], 'x');
    expect([viaToken.status, viaToken.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    expect((await api.call('DELETE', `/api/v2/comments/${theirs.id}`, token)).status).toBe(404);
  });

  it('a record deletion soft-deletes its comments', async () => {
    const rowId = await api.insert(owner, t.baseId, t.tableId, 'doomed');
    const c = (await api.comment(owner.token, t.tableId, rowId, 'on doomed')).body;
    expect((await api.call('DELETE', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}/${rowId}`, owner.token)).status).toBe(200);
    await eventually(async () => (await db.withSchema('comments').table('comments').where({ id: c.id }).first()).is_deleted === true);
    const count = await api.call('GET', `/api/v1/db/meta/comments/count?fk_model_id=${t.tableId}&ids=${rowId}`, owner.token);
    expect(count.body).toEqual({ [rowId]: 0 });
  });

  it('a table deletion purges its comments permanently; a base deletion purges the base', async () => {
    const other = await api.baseWithTable(root, 1, owner);
    await api.comment(owner.token, other.tableId, other.rowIds[0], 'gone soon');
    const stored = () => db.withSchema('comments').table('comments').where({ fk_model_id: other.tableId }).count({ n: '*' });
    expect(Number((await stored())[0].n)).toBe(1);
    expect((await api.call('DELETE', `/api/v1/db/meta/tables/${other.tableId}`, owner.token)).status).toBe(200);
    await eventually(async () => Number((await stored())[0].n) === 0);
    expect((await api.comment(owner.token, other.tableId, other.rowIds[0], 'late')).status).toBe(404);
    const third = await api.baseWithTable(root, 1, owner);
    await api.comment(owner.token, third.tableId, third.rowIds[0], 'base goes');
    expect((await api.call('DELETE', `/api/v1/db/meta/projects/${third.baseId}`, owner.token)).status).toBe(200);
    await eventually(async () => Number((await db.withSchema('comments').table('comments').where({ base_id: third.baseId }).count({ n: '*' }))[0].n) === 0);
  });
});
