import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { idRef, msgSchema } from '../common/refs';
import { listOf } from '../common/paging';
import { authPageQuery } from './paging';
import { USERS } from '../endpoint/access';

const baseParams = z.object({ baseId: idRef });
const memberParams = baseParams.extend({ userId: idRef });
/** Invite body: comma-separated emails and a base role. */
export const memberBodySchema = z.object({ email: z.string().max(4096), roles: z.string().max(32) });
const memberSchema = z.object({
  id: z.string(), email: z.string(), firstname: z.string().nullable(), lastname: z.string().nullable(),
  roles: z.string().describe('Base role'), main_roles: z.string().nullable(), base_id: z.string(), created_at: z.string(),
});
const common = { service: 'auth', tags: ['Base members'], errors: [403, 404] } as const;
const inBase = { via: 'base', id: (i: { params: { baseId: string } }) => i.params.baseId } as const;
/** Who may read a base's members, and who may change them (the use cases also cap the roles an actor hands out). */
const reading = { callers: USERS, permission: 'members.read', scope: inBase } as const;
const managing = { callers: USERS, permission: 'members.write', scope: inBase } as const;
const path = '/api/v1/db/meta/projects/{baseId}/users';

export const memberList = defineEndpoint({
  ...common, id: 'memberList', auth: reading, method: 'GET', path, summary: 'List members of a base',
  params: baseParams, query: authPageQuery, response: z.object({ users: listOf(memberSchema) }),
});
export const memberInvite = defineEndpoint({
  ...common, id: 'memberInvite', auth: managing, method: 'POST', path, summary: 'Invite users to a base',
  params: baseParams, body: memberBodySchema, response: msgSchema,
  example: { request: { email: 'a@example.com', roles: 'editor' }, response: { msg: 'The user has been invited successfully' } },
});
export const memberUpdate = defineEndpoint({
  ...common, id: 'memberUpdate', auth: managing, method: 'PATCH', path: `${path}/{userId}`, summary: "Change a member's role",
  params: memberParams, body: memberBodySchema.partial({ email: true }), response: msgSchema,
  example: { request: { roles: 'viewer' }, response: { msg: 'The user has been updated successfully' } },
});
export const memberRemove = defineEndpoint({
  ...common, id: 'memberRemove', auth: managing, method: 'DELETE', path: `${path}/{userId}`, summary: 'Remove a member',
  params: memberParams, response: msgSchema, example: { response: { msg: 'The user has been removed successfully' } },
});
