import { z } from 'zod';
import { ACCOUNT, USERS, defineEndpoint, type Permission } from '@tabula/contracts';
import { AppError } from '@tabula/http';
import { BaseAccess, contractAuthorizer, type Principal, type ScopeResolvers } from '@tabula/auth';

/**
 * The contract-derived authorizer on its own: each endpoint's declared
 * permission checked on its declared scope. Answers asserted by status and
 * code: a caller with no role in the resource's base sees a missing resource
 * (404), a member whose role is too weak a 403, org permissions by org role,
 * `self` by owner.
 */
const params = z.object({ noteId: z.string().min(1) });
const endpoint = (permission: Permission | Permission[] | undefined, scoped = true, callers: readonly ('session' | 'orgToken' | 'baseToken')[] = USERS) => defineEndpoint({
  id: `note_${String(permission)}_${scoped}`, method: 'GET', path: '/api/v1/notes/{noteId}', service: 'comments',
  auth: { callers, ...(permission ? { permission } : {}), ...(scoped ? { scope: { via: 'comment' as const, id: (i: { params: { noteId: string } }) => i.params.noteId } } : {}) },
  summary: 'A note', tags: ['Notes'], params, response: z.object({ ok: z.boolean() }),
});

const NOTES: Record<string, { baseId?: string; ownerId?: string }> = {
  n1: { baseId: 'p1', ownerId: 'owner' },
  free: { ownerId: 'owner' },
  unowned: { baseId: 'p1' },
};
const ROLES: Record<string, string> = { 'p1:viewer': 'viewer', 'p1:editor': 'editor', 'p1:creator': 'creator', 'p1:none': 'no-access', 'p1:owner': 'owner' };
const missing = (id: unknown) => new AppError(404, 'ERR_NOTE_NOT_FOUND', `Note '${String(id)}' not found`);
const resolvers: ScopeResolvers = {
  comment: {
    missing,
    resolve: async (_principal, id) => {
      const note = NOTES[String(id)];
      if (!note) throw missing(id);
      return { ...note, value: { id } };
    },
  },
};
const authorizer = () => contractAuthorizer(new BaseAccess(async (baseId, userId) => ROLES[`${baseId}:${userId}`]), resolvers);
const user = (id: string, extra: Partial<Principal> = {}): Principal => ({ kind: 'user', id, roles: [], ...extra } as Principal);
const input = (noteId = 'n1') => ({ params: { noteId }, query: {}, body: undefined });

/** The status and code of the refusal, or 'ok' with the role and base. */
async function outcome(permission: Permission | Permission[] | undefined, principal: Principal, noteId = 'n1', scoped = true): Promise<unknown> {
  try {
    const scope = await authorizer().authorize(endpoint(permission, scoped) as never, principal, input(noteId) as never);
    return { ok: true, role: scope.role, baseId: scope.baseId, value: scope.value };
  } catch (err) {
    return { status: (err as AppError).status, code: (err as AppError).code };
  }
}

describe('contractAuthorizer', () => {
  it('base permissions: enough role → the scope with role, base and value; too weak → 403; no role or no-access → the missing answer', async () => {
    expect(await outcome('data.read', user('viewer'))).toEqual({ ok: true, role: 'viewer', baseId: 'p1', value: { id: 'n1' } });
    expect(await outcome('data.write', user('editor'))).toMatchObject({ ok: true, role: 'editor' });
    expect(await outcome('data.write', user('viewer'))).toEqual({ status: 403, code: 'ERR_FORBIDDEN' });
    expect(await outcome('data.read', user('stranger'))).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    expect(await outcome('data.read', user('none'))).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    expect(await outcome('data.read', user('viewer'), 'nope')).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    // a resource outside any base cannot grant a base permission
    expect(await outcome('data.read', user('viewer'), 'free')).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    // a base token of another base sees nothing
    expect(await outcome('data.read', user('editor', { baseScope: 'p2' } as Partial<Principal>))).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
  });

  it('several permissions are all needed, in order: an org permission refused to a member is 403, to anyone else the missing answer', async () => {
    expect(await outcome(['base.read', 'base.create'], user('creator', { roles: ['org-level-creator'] }))).toMatchObject({ ok: true, role: 'creator' });
    expect(await outcome(['base.read', 'base.create'], user('creator', { roles: ['org-level-viewer'] }))).toEqual({ status: 403, code: 'ERR_FORBIDDEN' });
    expect(await outcome(['base.create'], user('creator', { roles: ['org-level-viewer'] }))).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    expect(await outcome(['base.create'], user('creator', { roles: ['org-level-creator'] }))).toMatchObject({ ok: true, role: undefined, baseId: 'p1' });
  });

  it('self: the owner alone; a resource without owner is missing for everyone', async () => {
    expect(await outcome('self', user('owner'))).toMatchObject({ ok: true, baseId: 'p1' });
    expect(await outcome('self', user('editor'))).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    expect(await outcome('self', user('owner'), 'unowned')).toEqual({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
  });

  it('without scope: org permissions by org role (403 naming role and permission), none → admitted', async () => {
    expect(await outcome('base.create', user('u', { roles: ['org-level-creator'] }), 'n1', false)).toEqual({ ok: true, role: undefined, baseId: undefined, value: undefined });
    expect(await outcome('base.create', user('u', { roles: ['super'] }), 'n1', false)).toMatchObject({ ok: true });
    expect(await outcome(undefined, user('u'), 'n1', false)).toMatchObject({ ok: true });
    let message = '';
    try {
      await authorizer().authorize(endpoint('base.create', false) as never, user('u', { roles: ['org-level-viewer'] }), input() as never);
    } catch (err) { message = (err as Error).message; }
    expect(message).toBe("Forbidden - role 'org-level-viewer' may not perform 'base.create' (org-level-creator or above)");
    try {
      await authorizer().authorize(endpoint('base.create', false) as never, user('u'), input() as never);
    } catch (err) { message = (err as Error).message; }
    expect(message).toBe("Forbidden - role 'none' may not perform 'base.create' (org-level-creator or above)");
    try {
      await authorizer().authorize(endpoint('base.create', false) as never, user('u', { roles: ['org-level-viewer', 'org-level-commenter'] }), input() as never);
    } catch (err) { message = (err as Error).message; }
    expect(message).toBe("Forbidden - role 'org-level-viewer,org-level-commenter' may not perform 'base.create' (org-level-creator or above)");
    // the admitted caller's scope names the caller (use cases read the principal from it)
    const caller = user('u', { roles: ['org-level-creator'] });
    expect((await authorizer().authorize(endpoint('base.create', false) as never, caller, input() as never)).principal).toBe(caller);
  });

  it('a base permission on a resource outside any base is refused even where every base would admit the caller', async () => {
    const generous = contractAuthorizer(new BaseAccess(async () => 'owner'), resolvers);
    await expect(generous.authorize(endpoint('data.read') as never, user('anyone'), input('free') as never)).rejects.toMatchObject({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
    await expect(generous.authorize(endpoint('data.read') as never, user('anyone'), input('n1') as never)).resolves.toMatchObject({ role: 'owner', baseId: 'p1' });
  });

  it('check: a scoped endpoint needs a resolver of its kind; refuse: a base token on its own base gets 403, elsewhere the missing answer', async () => {
    const a = authorizer();
    expect(() => a.check!(endpoint('data.read') as never)).not.toThrow();
    expect(() => a.check!(endpoint('base.create', false) as never)).not.toThrow();
    const bare = contractAuthorizer(new BaseAccess(async () => undefined), {});
    expect(() => bare.check!(endpoint('data.read') as never)).toThrow(/no resolver for scope 'comment'/);
    await expect(bare.authorize(endpoint('data.read') as never, user('viewer'), input() as never)).rejects.toThrow(/no resolver/);
    const own = await a.refuse!(endpoint('data.read', true, ACCOUNT) as never, user('editor', { baseScope: 'p1' } as Partial<Principal>), input() as never);
    expect({ status: (own as AppError).status, message: own.message }).toEqual({ status: 403, message: 'Forbidden - a base-scoped API token cannot act on the workspace' });
    const other = await a.refuse!(endpoint('data.read', true, ACCOUNT) as never, user('editor', { baseScope: 'p2' } as Partial<Principal>), input() as never);
    expect((other as AppError).status).toBe(404);
    const unknown = await a.refuse!(endpoint('data.read', true, ACCOUNT) as never, user('editor', { baseScope: 'p1' } as Partial<Principal>), input('nope') as never);
    expect((unknown as AppError).status).toBe(404);
    const session = await a.refuse!(endpoint('data.read', true, ACCOUNT) as never, user('editor'), input() as never);
    expect((session as AppError).status).toBe(404);
  });
});
