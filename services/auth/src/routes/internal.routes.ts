import Router from '@koa/router';
import { authInternal } from '@tabula/contracts';
import { errors, route } from '@tabula/http';
import type { AuthPorts } from '../ports';
import { authenticate } from '../domain/sessions/authenticate';
import { applyMembership } from '../domain/members/apply-membership';
import { baseRoleOf, usersWithMembership } from '../repositories/base-member.repository';
import { findUserById } from '../repositories/user.repository';
import { presentUserSummary } from '../presenters/user.presenter';

/** The internal API of libs/contracts/src/auth/internal.ts; other services only. */
export function internalRouter(ports: AuthPorts): Router {
  const router = new Router();

  route(router, authInternal.authenticate, async (ctx) => {
    const principal = await authenticate(ports, ctx.input.body);
    if (!principal) throw errors.unauthorized();
    return { principal };
  });

  route(router, authInternal.roleOf, async (ctx) => {
    const { baseId, userId } = ctx.input.params;
    const role = await baseRoleOf(ports.db, baseId, userId);
    if (!role) throw errors.notFound('ERR_MEMBER_NOT_FOUND', `User '${userId}' has no role in base '${baseId}'`);
    return { role };
  });

  route(router, authInternal.setRole, async (ctx) => {
    const { params, body } = ctx.input;
    if (!(await findUserById(ports.db, params.userId))) throw errors.notFound('ERR_USER_NOT_FOUND', `User '${params.userId}' not found`);
    await applyMembership(ports, params.baseId, params.userId, body.role);
    return { role: body.role };
  });

  route(router, authInternal.userGet, async (ctx) => {
    const user = await findUserById(ports.db, ctx.input.params.userId);
    if (!user) throw errors.notFound('ERR_USER_NOT_FOUND', 'User not found');
    return presentUserSummary(user);
  });

  route(router, authInternal.usersResolve, async (ctx) => {
    const { params, body } = ctx.input;
    const rows = await usersWithMembership(ports.db, params.baseId, body.ids, body.emails);
    return { users: rows.map((u) => ({ id: u.id, email: u.email, display_name: [u.firstname, u.lastname].filter(Boolean).join(' ') || null, member: u.member })) };
  });

  return router;
}
