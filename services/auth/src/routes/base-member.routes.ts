import type { Context } from 'koa';
import Router from '@koa/router';
import { memberInvite, memberList, memberRemove, memberUpdate, pageOf, resolvePaging } from '@tabula/contracts';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { inviteMembers } from '../domain/members/invite-members';
import { updateMember } from '../domain/members/update-member';
import { removeMember } from '../domain/members/remove-member';
import type { MemberActor } from '../domain/members/membership-policy';
import { listBaseMembers } from '../repositories/base-member.repository';
import { presentBaseMember } from '../presenters/base-member.presenter';

async function actorIn(ports: AuthPorts, ctx: Context, baseId: string): Promise<MemberActor> {
  const principal = principalOf(ctx);
  return { principal, role: await ports.baseAccess.authorize(principal, baseId, 'members.write') };
}

/** Base members: `/api/v1/db/meta/projects/:baseId/users[/:userId]` (body `{ email, roles }`). */
export function baseMemberRouter(ports: AuthPorts): Router {
  const router = new Router();

  route(router, memberList, async (ctx) => {
    const { params, query } = ctx.input;
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'members.read');
    const page = resolvePaging(query);
    const { rows, total } = await listBaseMembers(ports.db, params.baseId, page);
    return { users: pageOf(rows.map(presentBaseMember), total, page) };
  });

  route(router, memberInvite, async (ctx) => {
    const { params, body } = ctx.input;
    await inviteMembers(ports, await actorIn(ports, ctx, params.baseId), params.baseId, body);
    return { msg: 'The user has been invited successfully' };
  });

  route(router, memberUpdate, async (ctx) => {
    const { params, body } = ctx.input;
    await updateMember(ports, await actorIn(ports, ctx, params.baseId), params.baseId, params.userId, body.roles);
    return { msg: 'The user has been updated successfully' };
  });

  route(router, memberRemove, async (ctx) => {
    const { params } = ctx.input;
    await removeMember(ports, await actorIn(ports, ctx, params.baseId), params.baseId, params.userId);
    return { msg: 'The user has been removed successfully' };
  });

  return router;
}
