import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { msgSchema } from '../common/refs';
import { PUBLIC, SESSION, USERS } from '../endpoint/access';

/** zod objects strip unknown keys: `roles`, `super`, `__proto__` in a sign-up body are ignored. */
export const signUpBodySchema = z.object({
  email: z.string().max(1024), password: z.string().max(4096),
  firstname: z.string().max(255).optional(), lastname: z.string().max(255).optional(),
});
export const signInBodySchema = z.object({ email: z.string().max(1024), password: z.string().max(4096) });
const tokenSchema = z.object({ token: z.string().describe('JWT; the refresh token is set as the refresh_token cookie') });
const meSchema = z.object({
  id: z.string(), email: z.string(), email_verified: z.boolean(),
  firstname: z.string().nullable(), lastname: z.string().nullable(), roles: z.string().describe('Comma-separated org roles'),
});
const jwtExample = { token: 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6InVzMSJ9.sig' };

function accountEndpoints(v: 'v1' | 'v2') {
  const p = `/api/${v}/auth`;
  const s = v === 'v1' ? '' : 'V2';
  return {
    signUp: defineEndpoint({
      id: `authSignUp${s}`, method: 'POST', path: `${p}/user/signup`, service: 'auth', auth: { callers: PUBLIC },
      summary: 'Sign up (SVC_SIGNUP: open, invite or closed; 403 when refused)', tags: ['Auth'], body: signUpBodySchema, response: tokenSchema, errors: [403, 429],
      example: { request: { email: 'me@example.com', password: 'a-long-password' }, response: jwtExample },
    }),
    signIn: defineEndpoint({
      id: `authSignIn${s}`, method: 'POST', path: `${p}/user/signin`, service: 'auth', auth: { callers: PUBLIC },
      summary: 'Sign in', tags: ['Auth'], body: signInBodySchema, response: tokenSchema, errors: [401, 429],
      example: { request: { email: 'me@example.com', password: 'a-long-password' }, response: jwtExample },
    }),
    me: defineEndpoint({
      id: `authMe${s}`, method: 'GET', path: `${p}/user/me`, service: 'auth', auth: { callers: USERS },
      summary: 'The signed-in user', tags: ['Auth'], response: meSchema,
      example: { response: { id: 'us1', email: 'me@example.com', email_verified: false, firstname: null, lastname: null, roles: 'org-level-creator' } },
    }),
    tokenRefresh: defineEndpoint({
      id: `authTokenRefresh${s}`, method: 'POST', path: `${p}/token/refresh`, service: 'auth', auth: { callers: PUBLIC },
      summary: 'New JWT from the refresh_token cookie (rotates it)', tags: ['Auth'], response: tokenSchema, errors: [401],
      example: { response: jwtExample },
    }),
    signOut: defineEndpoint({
      id: `authSignOut${s}`, method: 'POST', path: `${p}/user/signout`, service: 'auth', auth: { callers: SESSION },
      summary: 'Sign out (revokes refresh sessions)', tags: ['Auth'], response: msgSchema,
      example: { response: { msg: 'Signed out successfully' } },
    }),
  };
}

/** Sign-up, sign-in, me, refresh, sign-out under /api/v1/auth. */
export const accountV1 = accountEndpoints('v1');
/** The same under /api/v2/auth. */
export const accountV2 = accountEndpoints('v2');
