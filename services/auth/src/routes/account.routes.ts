import Router from '@koa/router';
import { z } from 'zod';
import { errors, inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { AuthPorts } from '../app';
import { signUp } from '../domain/sign-up';
import { signIn } from '../domain/sign-in';
import { signOut } from '../domain/sign-out';
import { refreshFailed, refreshSession } from '../domain/refresh-session';
import { userRepository } from '../repositories/user.repository';
import { presentMe } from '../presenters/user.presenter';
import { clearRefreshCookie, clientIpOf, readRefreshCookie, setRefreshCookie } from './session-cookie';

/** zod objects strip unknown keys: `roles`, `super`, `__proto__` in a sign-up body are ignored. */
const signUpSchema = {
  body: z.object({
    email: z.string().max(1024), password: z.string().max(4096),
    firstname: z.string().max(255).optional(), lastname: z.string().max(255).optional(),
  }),
};
const signInSchema = { body: z.object({ email: z.string().max(1024), password: z.string().max(4096) }) };

/** Sign-up, sign-in, me, refresh and sign-out, under /api/v1/auth and /api/v2/auth. */
export function accountRouter(ports: AuthPorts, version: 'v1' | 'v2'): Router {
  const router = new Router({ prefix: `/api/${version}/auth` });

  router.post('/user/signup', validate(signUpSchema), async (ctx) => {
    const session = await signUp(ports, { ...inputOf(ctx, signUpSchema).body, clientIp: clientIpOf(ctx) });
    setRefreshCookie(ctx, session);
    ctx.body = { token: session.token };
  });

  router.post('/user/signin', validate(signInSchema), async (ctx) => {
    const session = await signIn(ports, { ...inputOf(ctx, signInSchema).body, clientIp: clientIpOf(ctx) });
    setRefreshCookie(ctx, session);
    ctx.body = { token: session.token };
  });

  router.get('/user/me', requireUser(), async (ctx) => {
    const user = await userRepository.findById(ports.db, principalOf(ctx).id);
    if (!user) throw errors.unauthorized();
    ctx.body = presentMe(user);
  });

  router.post('/token/refresh', async (ctx) => {
    const outcome = await refreshSession(ports, readRefreshCookie(ctx));
    if (!outcome.ok) {
      clearRefreshCookie(ctx);
      throw refreshFailed();
    }
    setRefreshCookie(ctx, outcome.session);
    ctx.body = { token: outcome.session.token };
  });

  router.post('/user/signout', requireUser({ allowApiToken: false }), async (ctx) => {
    await signOut(ports, principalOf(ctx).id);
    clearRefreshCookie(ctx);
    ctx.body = { msg: 'Signed out successfully' };
  });

  return router;
}
