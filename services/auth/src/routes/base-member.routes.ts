import type { Context } from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { AuthPorts } from '../app';
import { inviteMembers } from '../domain/invite-members';
import { updateMember } from '../domain/update-member';
import { removeMember } from '../domain/remove-member';
import type { MemberActor } from '../domain/membership-policy';
import { baseMemberRepository } from '../repositories/base-member.repository';
import { presentBaseMember } from '../presenters/base-member.presenter';
import { presentPage } from '../presenters/page.presenter';
import { pageOf, pageQuery } from './paging';

const baseParams = z.object({ baseId: z.string().min(1).max(64) });
const memberParams = baseParams.extend({ userId: z.string().min(1).max(64) });
const memberBody = z.object({ email: z.string().max(4096), roles: z.string().max(32) });
const list = { params: baseParams, query: pageQuery };
const invite = { params: baseParams, body: memberBody };
const update = { params: memberParams, body: memberBody.partial({ email: true }) };
const remove = { params: memberParams };

async function actorIn(ports: AuthPorts, ctx: Context, baseId: string): Promise<MemberActor> {
  const principal = principalOf(ctx);
  return { principal, role: await ports.baseAccess.authorize(principal, baseId, 'members.write') };
}

/** Base members: `/api/v1/db/meta/projects/:baseId/users[/:userId]` (body `{ email, roles }`). */
export function baseMemberRouter(ports: AuthPorts): Router {
  const router = new Router({ prefix: '/api/v1/db/meta/projects/:baseId/users' });

  router.get('/', requireUser(), validate(list), async (ctx) => {
    const { params, query } = inputOf(ctx, list);
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'members.read');
    const page = pageOf(query);
    const { rows, total } = await baseMemberRepository.list(ports.db, params.baseId, page);
    ctx.body = { users: presentPage(rows.map(presentBaseMember), total, page) };
  });

  router.post('/', requireUser(), validate(invite), async (ctx) => {
    const { params, body } = inputOf(ctx, invite);
    await inviteMembers(ports, await actorIn(ports, ctx, params.baseId), params.baseId, body);
    ctx.body = { msg: 'The user has been invited successfully' };
  });

  router.patch('/:userId', requireUser(), validate(update), async (ctx) => {
    const { params, body } = inputOf(ctx, update);
    await updateMember(ports, await actorIn(ports, ctx, params.baseId), params.baseId, params.userId, body.roles);
    ctx.body = { msg: 'The user has been updated successfully' };
  });

  router.delete('/:userId', requireUser(), validate(remove), async (ctx) => {
    const { params } = inputOf(ctx, remove);
    await removeMember(ports, await actorIn(ports, ctx, params.baseId), params.baseId, params.userId);
    ctx.body = { msg: 'The user has been removed successfully' };
  });

  return router;
}
