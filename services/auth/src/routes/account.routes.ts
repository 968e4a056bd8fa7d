import Router from '@koa/router';
import { accountV1, accountV2 } from '@tabula/contracts';
import { errors, route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { signUp } from '../domain/accounts/sign-up';
import { signIn } from '../domain/sessions/sign-in';
import { signOut } from '../domain/sessions/sign-out';
import { refreshFailed, refreshSession } from '../domain/sessions/refresh-session';
import { findUserById } from '../repositories/user.repository';
import { presentMe } from '../presenters/user.presenter';
import { clearRefreshCookie, clientIpOf, readRefreshCookie, setRefreshCookie } from './session-cookie';

/** Sign-up, sign-in, me, refresh and sign-out, under /api/v1/auth and /api/v2/auth. */
export function accountRouter(ports: AuthPorts, version: 'v1' | 'v2'): Router {
  const router = new Router();
  const e = version === 'v1' ? accountV1 : accountV2;

  route(router, e.signUp, async (ctx) => {
    const session = await signUp(ports, { ...ctx.input.body, clientIp: clientIpOf(ctx) });
    setRefreshCookie(ctx, session);
    return { token: session.token };
  });

  route(router, e.signIn, async (ctx) => {
    const session = await signIn(ports, { ...ctx.input.body, clientIp: clientIpOf(ctx) });
    setRefreshCookie(ctx, session);
    return { token: session.token };
  });

  route(router, e.me, async (ctx) => {
    const user = await findUserById(ports.db, principalOf(ctx).id);
    if (!user) throw errors.unauthorized();
    return presentMe(user);
  });

  route(router, e.tokenRefresh, async (ctx) => {
    const outcome = await refreshSession(ports, readRefreshCookie(ctx));
    if (!outcome.ok) {
      clearRefreshCookie(ctx);
      throw refreshFailed();
    }
    setRefreshCookie(ctx, outcome.session);
    return { token: outcome.session.token };
  });

  route(router, e.signOut, async (ctx) => {
    await signOut(ports, principalOf(ctx).id);
    clearRefreshCookie(ctx);
    return { msg: 'Signed out successfully' };
  });

  return router;
}
