import { ChangeAction } from '@tabula/contracts';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { publishMembershipChanged } from '../events/auth-events.producer';
import { baseMemberRepository } from '../repositories/base-member.repository';

/**
 * Grants, changes or (role undefined) revokes a base role, then tells every
 * service: the event for other processes, `invalidate` for this one's cache.
 */
export async function applyMembership(ports: AuthPorts, baseId: string, userId: string, role: string | undefined, actor?: Principal): Promise<void> {
  let action: ChangeAction;
  if (role === undefined) {
    if (!(await baseMemberRepository.remove(ports.db, baseId, userId))) {
      throw errors.notFound('ERR_USER_NOT_FOUND', `User '${userId}' is not a member of base '${baseId}'`);
    }
    action = ChangeAction.DELETED;
  } else {
    const before = await baseMemberRepository.roleOf(ports.db, baseId, userId);
    await baseMemberRepository.upsert(ports.db, baseId, userId, role);
    action = before ? ChangeAction.UPDATED : ChangeAction.CREATED;
  }
  ports.baseAccess.invalidate(baseId, userId);
  await publishMembershipChanged(ports, { action, baseId, userId, role: role ?? '', actor: actor && { id: actor.id, email: actor.email } });
}
