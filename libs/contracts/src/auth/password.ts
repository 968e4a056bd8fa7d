import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { msgSchema } from '../common/refs';
import { PUBLIC, SESSION } from '../endpoint/access';

export const forgotPasswordBodySchema = z.object({ email: z.string().max(1024) });
export const resetPasswordBodySchema = z.object({ password: z.string().max(4096) });
export const changePasswordBodySchema = z.object({ currentPassword: z.string().max(4096), newPassword: z.string().max(4096) });

function passwordEndpoints(v: 'v1' | 'v2') {
  const p = `/api/${v}/auth/password`;
  const s = v === 'v1' ? '' : 'V2';
  return {
    forgot: defineEndpoint({
      id: `authPasswordForgot${s}`, method: 'POST', path: `${p}/forgot`, service: 'auth', auth: { callers: PUBLIC },
      summary: 'Mail a password-reset link', tags: ['Auth'], body: forgotPasswordBodySchema, response: msgSchema, errors: [429],
      example: { request: { email: 'me@example.com' }, response: { msg: 'Please check your email to reset the password' } },
    }),
    reset: defineEndpoint({
      id: `authPasswordReset${s}`, method: 'POST', path: `${p}/reset/{token}`, service: 'auth', auth: { callers: PUBLIC },
      summary: 'Reset the password with a mailed token', tags: ['Auth'],
      params: z.object({ token: z.string().min(1).max(512) }), body: resetPasswordBodySchema, response: msgSchema,
      example: { request: { password: 'a-new-long-password' }, response: { msg: 'Password has been reset successfully' } },
    }),
    change: defineEndpoint({
      id: `authPasswordChange${s}`, method: 'POST', path: `${p}/change`, service: 'auth', auth: { callers: SESSION },
      summary: 'Change the password (ends other sessions)', tags: ['Auth'], body: changePasswordBodySchema, response: msgSchema,
      example: { request: { currentPassword: 'old-long-password', newPassword: 'new-long-password' }, response: { msg: 'Password has been updated successfully' } },
    }),
  };
}

/** Forgot, reset and change password under /api/v1/auth/password. */
export const passwordV1 = passwordEndpoints('v1');
/** The same under /api/v2/auth/password. */
export const passwordV2 = passwordEndpoints('v2');
