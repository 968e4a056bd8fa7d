import { randomUUID } from 'node:crypto';
import type { Principal } from '@tabula/auth';
import { AppError } from '@tabula/http';
import { assertAuthor, commentNotFound, commentScopes, isCommentAdmin } from '../src/domain/comments/comment-access';
import { insertComment, type CommentRow } from '../src/repositories/comment.repository';
import { startCommentsHarness, type CommentsHarness } from './comments-app.harness';

/** The scopes the comments contracts are guarded by, the author rule and who administers comments (comment-access.ts). */
describe('comment access', () => {
  let h: CommentsHarness;
  const user = (id: string): Principal => ({ kind: 'user', id, roles: ['org-level-viewer'] } as Principal);
  const errorOf = async (work: () => unknown): Promise<AppError> => {
    try {
      await work();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('no error');
  };
  const newComment = (over: Partial<CommentRow> = {}) => insertComment(h.ports.db, {
    id: `cm${randomUUID().replace(/-/g, '').slice(0, 14)}`, base_id: 'p_a', fk_workspace_id: null, source_id: 's_a', fk_model_id: 'md_a', row_id: '1',
    comment: 'hello', parent_comment_id: null, created_by: 'us_author', created_by_email: 'author@example.com', ...over,
  });

  beforeAll(async () => {
    h = await startCommentsHarness();
    h.world.tables.set('md_a', { id: 'md_a', baseId: 'p_a', sourceId: 's_a' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a table resolves to its base (from meta); a missing table and a missing comment answer their 404s', async () => {
    const scopes = commentScopes(h.ports) as Required<ReturnType<typeof commentScopes>>;
    const table = await scopes.table.resolve(user('us_x'), 'md_a', {});
    expect(table).toMatchObject({ baseId: 'p_a', value: { tableId: 'md_a', baseId: 'p_a', sourceId: 's_a' } });
    const noTable = await errorOf(() => scopes.table.resolve(user('us_x'), 'md_none', {}));
    expect([noTable.status, noTable.code]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    const missingTable = scopes.table.missing('md_gone') as AppError;
    expect([missingTable.status, missingTable.code, missingTable.message]).toEqual([404, 'ERR_TABLE_NOT_FOUND', "Table 'md_gone' not found"]);
    const missingComment = scopes.comment.missing('cm_gone') as AppError;
    expect([missingComment.status, missingComment.code, missingComment.message]).toEqual([404, 'ERR_COMMENT_NOT_FOUND', "Comment 'cm_gone' not found"]);
    expect(commentNotFound('x').message).toBe("Comment 'x' not found");
  });

  it('a live comment resolves to its own base; a deleted or unknown one is the same 404', async () => {
    const scopes = commentScopes(h.ports) as Required<ReturnType<typeof commentScopes>>;
    const live = await newComment({ base_id: 'p_b' });
    expect(await scopes.comment.resolve(user('us_x'), live.id, {})).toEqual({ baseId: 'p_b', value: expect.objectContaining({ id: live.id, base_id: 'p_b', comment: 'hello' }) });
    const deleted = await newComment();
    await h.ports.db.withSchema('comments').table('comments').where({ id: deleted.id }).update({ is_deleted: true });
    for (const id of [deleted.id, 'cm_unknown']) {
      const err = await errorOf(() => scopes.comment.resolve(user('us_x'), id, {}));
      expect([err.status, err.code, err.message]).toEqual([404, 'ERR_COMMENT_NOT_FOUND', `Comment '${id}' not found`]);
    }
  });

  it('only the author edits or deletes (403 naming the verb); admins are the base creator and owner', async () => {
    const comment = await newComment();
    expect(() => assertAuthor(user('us_author'), comment, 'edit')).not.toThrow();
    expect(() => assertAuthor(user('us_author'), comment, 'delete')).not.toThrow();
    for (const verb of ['edit', 'delete'] as const) {
      const err = await errorOf(() => assertAuthor(user('us_other'), comment, verb));
      expect([err.status, err.message]).toEqual([403, `Forbidden - only the author may ${verb} this comment`]);
    }
    const admin = (role: string | undefined) => isCommentAdmin({ principal: user('us_x'), baseId: 'p_a', role, value: comment });
    expect(['no-access', 'viewer', 'commenter', 'editor', 'creator', 'owner'].map(admin)).toEqual([false, false, false, false, true, true]);
    expect(admin(undefined)).toBe(false);
  });
});
