import knex, { type Knex } from 'knex';
import type { TestStack } from '@tabula/testing';
import { startCommentStack, type TabulaClient, type TestUser } from './comments-e2e.helpers';

type Action = 'list' | 'create' | 'editOwn' | 'editOther' | 'deleteOwn' | 'deleteOther' | 'resolve';
const ACTIONS: Action[] = ['list', 'create', 'editOwn', 'editOther', 'deleteOwn', 'deleteOther', 'resolve'];

/** Expected status per role and action (spec "Authentication" rule 5; admins = creator, owner, super). */
const EXPECTED: Record<string, Record<Action, number>> = {
  viewer: { list: 200, create: 403, editOwn: 403, editOther: 403, deleteOwn: 403, deleteOther: 403, resolve: 403 },
  commenter: { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 403, resolve: 403 },
  editor: { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 403, resolve: 403 },
  creator: { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 200, resolve: 200 },
  owner: { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 200, resolve: 200 },
  super: { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 200, resolve: 200 },
  'base API token (owner)': { list: 200, create: 200, editOwn: 200, editOther: 403, deleteOwn: 200, deleteOther: 200, resolve: 200 },
};

let stack: TestStack;
let api: TabulaClient;
let db: Knex;
let root: TestUser;
let author: TestUser;
let t: { baseId: string; tableId: string; rowIds: string[] };
const callers = new Map<string, { token: string; userId: string }>();
const observed: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  ({ stack, api } = await startCommentStack());
  db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  root = await api.signup('super');
  const owner = await api.signup('owner');
  author = await api.signup('author');
  t = await api.baseWithTable(root, 1, owner);
  await api.addMember(root, t.baseId, author, 'commenter');
  for (const role of ['viewer', 'commenter', 'editor', 'creator']) {
    const user = await api.signup(role);
    await api.addMember(root, t.baseId, user, role);
    callers.set(role, { token: user.token, userId: user.id });
  }
  callers.set('owner', { token: owner.token, userId: owner.id });
  callers.set('super', { token: root.token, userId: root.id });
  callers.set('base API token (owner)', { token: await api.baseToken(owner, t.baseId), userId: owner.id });
}, 120_000);
afterAll(async () => {
  // the matrix as observed, for the report
  console.log(['role'.padEnd(24) + ACTIONS.map((a) => a.padStart(12)).join(''),
    ...Object.entries(observed).map(([role, row]) => role.padEnd(24) + ACTIONS.map((a) => String(row[a]).padStart(12)).join(''))].join('\n'));
  await db?.destroy();
  await stack?.stop();
});

/** A comment by `userId` (through the API when the role may write, else planted as a viewer's leftover). */
async function commentOf(userId: string, token: string | undefined): Promise<string> {
  if (token) {
    const res = await api.comment(token, t.tableId, t.rowIds[0], 'own');
    if (res.status === 200) return res.body.id as string;
  }
  const [row] = await db.withSchema('comments').table('comments').insert({
    id: `com${Math.random().toString(36).slice(2, 16).padEnd(14, '0')}`, base_id: t.baseId, source_id: 'b-test', fk_model_id: t.tableId,
    row_id: t.rowIds[0], comment: 'written while commenter', created_by: userId, created_by_email: 'x@example.com',
  }).returning('id');
  return row.id as string;
}

async function run(role: string, action: Action): Promise<number> {
  const { token, userId } = callers.get(role)!;
  const others = async () => (await api.comment(author.token, t.tableId, t.rowIds[0], 'by author')).body.id as string;
  switch (action) {
    case 'list': return (await api.call('GET', `/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=${t.rowIds[0]}`, token)).status;
    case 'create': return (await api.comment(token, t.tableId, t.rowIds[0], `by ${role}`)).status;
    case 'editOwn': return (await api.call('PATCH', `/api/v1/db/meta/comment/${await commentOf(userId, token)}`, token, { comment: 'edited' })).status;
    case 'editOther': return (await api.call('PATCH', `/api/v2/comments/${await others()}`, token, { comment: 'hijack' })).status;
    case 'deleteOwn': return (await api.call('DELETE', `/api/v2/comments/${await commentOf(userId, token)}`, token)).status;
    case 'deleteOther': return (await api.call('DELETE', `/api/v1/db/meta/comment/${await others()}`, token)).status;
    case 'resolve': return (await api.call('POST', `/api/v2/comments/${await others()}/resolve`, token)).status;
    default: throw new Error(action);
  }
}

describe('comment role matrix', () => {
  for (const [role, expected] of Object.entries(EXPECTED)) {
    it(`${role}: ${ACTIONS.map((a) => `${a} ${expected[a]}`).join(', ')}`, async () => {
      const row: Record<string, number> = {};
      for (const action of ACTIONS) row[action] = await run(role, action);
      observed[role] = row;
      expect(row).toEqual(expected);
    });
  }

  it('refused edits changed nothing; only the admins\' deletes of the author\'s comments took effect', async () => {
    const rows = await db.withSchema('comments').table('comments').where({ created_by: author.id });
    expect(rows.filter((r) => r.comment !== 'by author')).toEqual([]);
    const deletedByAdmins = rows.filter((r) => r.is_deleted).length;
    expect(deletedByAdmins).toBe(4);
  });
});
