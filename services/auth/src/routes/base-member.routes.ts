import type Router from '@koa/router';
import { memberInvite, memberList, memberRemove, memberUpdate, pageOf, resolvePaging } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { AuthPorts } from '../ports';
import type { BaseRef } from '../domain/auth-access';
import { inviteMembers } from '../domain/members/invite-members';
import { updateMember } from '../domain/members/update-member';
import { removeMember } from '../domain/members/remove-member';
import { listBaseMembers } from '../repositories/base-member.repository';
import { presentBaseMember } from '../presenters/base-member.presenter';

/** Base members: `/api/v1/db/meta/projects/:baseId/users[/:userId]` (body `{ email, roles }`). */
export function baseMemberRouter(ports: AuthPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);

  route(router, memberList, async (ctx) => {
    const page = resolvePaging(ctx.input.query);
    const { rows, total } = await listBaseMembers(ports.db, scopeOf<BaseRef>(ctx).value.id, page);
    return { users: pageOf(rows.map(presentBaseMember), total, page) };
  });

  route(router, memberInvite, async (ctx) => {
    await inviteMembers(ports, scopeOf<BaseRef>(ctx), ctx.input.body);
    return { msg: 'The user has been invited successfully' };
  });

  route(router, memberUpdate, async (ctx) => {
    await updateMember(ports, scopeOf<BaseRef>(ctx), ctx.input.params.userId, ctx.input.body.roles);
    return { msg: 'The user has been updated successfully' };
  });

  route(router, memberRemove, async (ctx) => {
    await removeMember(ports, scopeOf<BaseRef>(ctx), ctx.input.params.userId);
    return { msg: 'The user has been removed successfully' };
  });

  return router;
}
