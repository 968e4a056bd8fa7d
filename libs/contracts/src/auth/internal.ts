import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { idRef } from '../common/refs';
import { principalSchema } from './principal';
import { SERVICES } from '../endpoint/access';

const BASE_ROLE_NAMES = ['no-access', 'viewer', 'commenter', 'editor', 'creator', 'owner'] as const;
const memberParams = z.object({ baseId: idRef, userId: idRef });
const roleSchema = z.object({ role: z.enum(BASE_ROLE_NAMES) });
const common = { service: 'auth', auth: { callers: SERVICES }, tags: ['Internal: auth'] } as const;

/** Body of `POST /internal/authenticate`. */
export const authenticateBodySchema = z.object({ token: z.string().min(1).max(4096), kind: z.enum(['jwt', 'api-token']) });

export const authenticate = defineEndpoint({
  ...common, id: 'internalAuthenticate', method: 'POST', path: '/internal/authenticate',
  summary: 'Resolve a JWT or API token to a principal', body: authenticateBodySchema,
  response: z.object({ principal: principalSchema }), errors: [401],
});
export const roleOf = defineEndpoint({
  ...common, id: 'internalRoleOf', method: 'GET', path: '/internal/bases/{baseId}/members/{userId}',
  summary: "A user's role in a base (404 ERR_MEMBER_NOT_FOUND without one)", params: memberParams,
  response: z.object({ role: z.string() }), errors: [404],
});
export const setRole = defineEndpoint({
  ...common, id: 'internalSetRole', method: 'PUT', path: '/internal/bases/{baseId}/members/{userId}',
  summary: "Set a user's role in a base (meta makes a base's creator its owner)", params: memberParams,
  body: roleSchema, response: roleSchema, errors: [404],
});
export const userGet = defineEndpoint({
  ...common, id: 'internalUserGet', method: 'GET', path: '/internal/users/{userId}',
  summary: 'A user summary', params: z.object({ userId: idRef }),
  response: z.object({ id: z.string(), email: z.string(), firstname: z.string().nullish(), lastname: z.string().nullish() }), errors: [404],
});

/** A user as a record's user cell shows it (CreatedBy, LastModifiedBy, User); `member`: has a role in the base asked about. */
export const cellUserSchema = z.object({ id: z.string(), email: z.string(), display_name: z.string().nullable(), member: z.boolean() });
export type CellUser = z.infer<typeof cellUserSchema>;

export const usersResolve = defineEndpoint({
  ...common, id: 'internalUsersResolve', method: 'POST', path: '/internal/bases/{baseId}/users/resolve',
  summary: 'Users by id or e-mail (the ones found), each with whether it is a member of the base', params: z.object({ baseId: idRef }),
  body: z.object({ ids: z.array(z.string().max(255)).max(10_000).default([]), emails: z.array(z.string().max(255)).max(10_000).default([]) }),
  response: z.object({ users: z.array(cellUserSchema) }),
});

/** The auth service's internal API; `clientOf(services, authInternal)`. */
export const authInternal = { authenticate, roleOf, setRole, userGet, usersResolve };
