import { Api } from 'nocodb-sdk';
import type { TestStack } from '@tabula/testing';
import { startCommentStack, type TabulaClient, type TestUser } from './comments-e2e.helpers';

/**
 * The spec's comment calls through the real `nocodb-sdk` client (its
 * `api.utils.comment*` methods, v1 paths with their trailing slashes and
 * axios' `ids[]=` arrays), and the v2 paths through the SDK's own axios instance.
 */
let stack: TestStack;
let tabula: TabulaClient;
let api: Api<unknown>;
let owner: TestUser;
let t: { baseId: string; tableId: string; rowIds: string[] };

beforeAll(async () => {
  ({ stack, api: tabula } = await startCommentStack());
  const root = await tabula.signup('super');
  owner = await tabula.signup('owner');
  t = await tabula.baseWithTable(root, 3, owner);
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': owner.token } });
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('comments through nocodb-sdk', () => {
  it('commentRow, commentList, commentUpdate, commentCount, commentDelete', async () => {
    const [row1, row2, row3] = t.rowIds;
    const first = await api.utils.commentRow({ fk_model_id: t.tableId, row_id: row1, comment: 'Hello from the SDK' });
    expect(first).toMatchObject({ fk_model_id: t.tableId, row_id: row1, comment: 'Hello from the SDK', created_by_email: owner.email, is_deleted: false });
    const reply = await api.utils.commentRow({ fk_model_id: t.tableId, row_id: row1, comment: 'a reply', parent_comment_id: first.id } as never);
    expect(reply.parent_comment_id).toBe(first.id);
    await api.utils.commentRow({ fk_model_id: t.tableId, row_id: row2, comment: 'on row 2' });

    const listed = await api.utils.commentList({ fk_model_id: t.tableId, row_id: row1 });
    expect(listed.list.map((c) => c.comment)).toEqual(['Hello from the SDK', 'a reply']);
    expect((listed as unknown as { pageInfo: { totalRows: number } }).pageInfo.totalRows).toBe(2);

    const edited = (await api.utils.commentUpdate(first.id!, { comment: 'Hello, edited', fk_model_id: t.tableId })) as unknown as { comment: string; is_edited: boolean };
    expect(edited).toMatchObject({ comment: 'Hello, edited', is_edited: true });

    const counts = await api.utils.commentCount({ fk_model_id: t.tableId, ids: [row1, row2, row3] });
    expect(counts).toEqual({ [row1]: 2, [row2]: 1, [row3]: 0 });

    const deleted = await api.utils.commentDelete(reply.id!, {});
    expect(deleted).toEqual({ success: true });
    expect(await api.utils.commentCount({ fk_model_id: t.tableId, ids: [row1] })).toEqual({ [row1]: 1 });
    expect((await api.utils.commentList({ fk_model_id: t.tableId, row_id: row1 })).list.map((c) => c.id)).toEqual([first.id]);
  });

  it('the v2 paths (list, create, edit, resolve, unresolve, delete) through the SDK client', async () => {
    const http = api.instance;
    const base = `/api/v2/tables/${t.tableId}/records/${t.rowIds[2]}/comments`;
    const created = (await http.post(base, { comment: 'v2 comment' })).data;
    expect(created).toMatchObject({ comment: 'v2 comment', row_id: t.rowIds[2], base_id: t.baseId });
    expect((await http.patch(`/api/v2/comments/${created.id}`, { comment: 'v2 edited' })).data.is_edited).toBe(true);
    expect((await http.post(`/api/v2/comments/${created.id}/resolve`)).data.resolved_by_email).toBe(owner.email);
    expect((await http.post(`/api/v2/comments/${created.id}/resolve`, { resolved: false })).data.resolved_by).toBeNull();
    expect((await http.get(base)).data.list.map((c: { comment: string }) => c.comment)).toEqual(['v2 edited']);
    expect((await http.delete(`/api/v2/comments/${created.id}`)).data).toEqual({ success: true });
    expect((await http.get(base)).data.list).toEqual([]);
  });

  it('SDK errors carry the NocoDB error body', async () => {
    await expect(api.utils.commentRow({ fk_model_id: t.tableId, row_id: t.rowIds[0], comment: '' }))
      .rejects.toMatchObject({ response: { status: 400, data: { error: 'ERR_INVALID_REQUEST_BODY', msg: expect.any(String) } } });
  });
});
