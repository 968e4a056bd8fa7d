import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { baseRoleOf } from '../../repositories/base-member.repository';
import { applyMembership } from './apply-membership';
import { assertMayManage, type MemberActor } from './membership-policy';

/** Removes a member from the actor's base. */
export async function removeMember(ports: AuthPorts, actor: MemberActor, userId: string): Promise<void> {
  const baseId = actor.value.id;
  const current = await baseRoleOf(ports.db, baseId, userId);
  if (!current) throw errors.notFound('ERR_USER_NOT_FOUND', `User '${userId}' is not a member of base '${baseId}'`);
  assertMayManage(actor, current);
  await applyMembership(ports, baseId, userId, undefined, actor.principal);
}
