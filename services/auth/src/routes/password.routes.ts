import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { AuthPorts } from '../app';
import { forgotPassword } from '../domain/forgot-password';
import { resetPassword } from '../domain/reset-password';
import { changePassword } from '../domain/change-password';
import { clearRefreshCookie, clientIpOf } from './session-cookie';

const forgotSchema = { body: z.object({ email: z.string().max(1024) }) };
const resetSchema = { params: z.object({ token: z.string().min(1).max(512) }), body: z.object({ password: z.string().max(4096) }) };
const changeSchema = { body: z.object({ currentPassword: z.string().max(4096), newPassword: z.string().max(4096) }) };

/** Forgot, reset and change password, under /api/v1/auth and /api/v2/auth. */
export function passwordRouter(ports: AuthPorts, version: 'v1' | 'v2'): Router {
  const router = new Router({ prefix: `/api/${version}/auth/password` });

  router.post('/forgot', validate(forgotSchema), async (ctx) => {
    await forgotPassword(ports, { email: inputOf(ctx, forgotSchema).body.email, clientIp: clientIpOf(ctx) });
    ctx.body = { msg: 'Please check your email to reset the password' };
  });

  router.post('/reset/:token', validate(resetSchema), async (ctx) => {
    const input = inputOf(ctx, resetSchema);
    await resetPassword(ports, { token: input.params.token, password: input.body.password });
    ctx.body = { msg: 'Password has been reset successfully' };
  });

  router.post('/change', requireUser({ allowApiToken: false }), validate(changeSchema), async (ctx) => {
    await changePassword(ports, principalOf(ctx).id, inputOf(ctx, changeSchema).body);
    clearRefreshCookie(ctx);
    ctx.body = { msg: 'Password has been updated successfully' };
  });

  return router;
}
