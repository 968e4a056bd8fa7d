import Router from '@koa/router';
import { passwordV1, passwordV2 } from '@tabula/contracts';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { forgotPassword } from '../domain/accounts/forgot-password';
import { resetPassword } from '../domain/accounts/reset-password';
import { changePassword } from '../domain/accounts/change-password';
import { clearRefreshCookie, clientIpOf } from './session-cookie';

/** Forgot, reset and change password, under /api/v1/auth and /api/v2/auth. */
export function passwordRouter(ports: AuthPorts, version: 'v1' | 'v2'): Router {
  const router = new Router();
  const e = version === 'v1' ? passwordV1 : passwordV2;

  route(router, e.forgot, async (ctx) => {
    await forgotPassword(ports, { email: ctx.input.body.email, clientIp: clientIpOf(ctx) });
    return { msg: 'Please check your email to reset the password' };
  });

  route(router, e.reset, async (ctx) => {
    await resetPassword(ports, { token: ctx.input.params.token, password: ctx.input.body.password });
    return { msg: 'Password has been reset successfully' };
  });

  route(router, e.change, async (ctx) => {
    await changePassword(ports, principalOf(ctx).id, ctx.input.body);
    clearRefreshCookie(ctx);
    return { msg: 'Password has been updated successfully' };
  });

  return router;
}
