import Router from '@koa/router';
import { z } from 'zod';
import { errors, inputOf, validate } from '@tabula/http';
import { BASE_ROLES, requireService } from '@tabula/auth';
import type { AuthPorts } from '../app';
import { authenticate } from '../domain/authenticate';
import { applyMembership } from '../domain/apply-membership';
import { baseMemberRepository } from '../repositories/base-member.repository';
import { userRepository } from '../repositories/user.repository';
import { presentUserSummary } from '../presenters/user.presenter';

const authenticateSchema = { body: z.object({ token: z.string().min(1).max(4096), kind: z.enum(['jwt', 'api-token']) }) };
const memberParams = z.object({ baseId: z.string().min(1).max(64), userId: z.string().min(1).max(64) });
const getMember = { params: memberParams };
const putMember = { params: memberParams, body: z.object({ role: z.enum(BASE_ROLES) }) };
const getUser = { params: z.object({ userId: z.string().min(1).max(64) }) };

/** The internal API of libs/contracts/src/internal/auth-internal.ts; other services only. */
export function internalRouter(ports: AuthPorts): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireService());

  router.post('/authenticate', validate(authenticateSchema), async (ctx) => {
    const principal = await authenticate(ports, inputOf(ctx, authenticateSchema).body);
    if (!principal) throw errors.unauthorized();
    ctx.body = { principal };
  });

  router.get('/bases/:baseId/members/:userId', validate(getMember), async (ctx) => {
    const { baseId, userId } = inputOf(ctx, getMember).params;
    const role = await baseMemberRepository.roleOf(ports.db, baseId, userId);
    if (!role) throw errors.notFound('ERR_MEMBER_NOT_FOUND', `User '${userId}' has no role in base '${baseId}'`);
    ctx.body = { role };
  });

  router.put('/bases/:baseId/members/:userId', validate(putMember), async (ctx) => {
    const { params, body } = inputOf(ctx, putMember);
    if (!(await userRepository.findById(ports.db, params.userId))) throw errors.notFound('ERR_USER_NOT_FOUND', `User '${params.userId}' not found`);
    await applyMembership(ports, params.baseId, params.userId, body.role);
    ctx.body = { role: body.role };
  });

  router.get('/users/:userId', validate(getUser), async (ctx) => {
    const user = await userRepository.findById(ports.db, inputOf(ctx, getUser).params.userId);
    if (!user) throw errors.notFound('ERR_USER_NOT_FOUND', 'User not found');
    ctx.body = presentUserSummary(user);
  });

  return router;
}
