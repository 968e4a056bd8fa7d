import { withOutbox } from '@tabula/events';
import { ChangeAction } from '@tabula/contracts';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { enqueueMembershipChanged } from '../../events/auth-events.producer';
import { baseRoleOf, removeBaseMember, upsertBaseMember } from '../../repositories/base-member.repository';

/**
 * Grants, changes or (role undefined) revokes a base role, then tells every
 * service: the event (in the change's transaction, through the outbox) for
 * other processes, `invalidate` for this one's cache. Granting the role a
 * user already has changes nothing and announces nothing (idempotent).
 */
export async function applyMembership(ports: AuthPorts, baseId: string, userId: string, role: string | undefined, actor?: Principal): Promise<void> {
  const changed = await withOutbox(ports.db, ports.relay, async (trx) => {
    let action: ChangeAction;
    if (role === undefined) {
      if (!(await removeBaseMember(trx, baseId, userId))) {
        throw errors.notFound('ERR_USER_NOT_FOUND', `User '${userId}' is not a member of base '${baseId}'`);
      }
      action = ChangeAction.DELETED;
    } else {
      const before = await baseRoleOf(trx, baseId, userId);
      if (before === role) return false;
      await upsertBaseMember(trx, baseId, userId, role);
      action = before ? ChangeAction.UPDATED : ChangeAction.CREATED;
    }
    await enqueueMembershipChanged(trx, { action, baseId, userId, role: role ?? '', actor: actor && { id: actor.id, email: actor.email } });
    return true;
  });
  if (changed) ports.baseAccess.invalidate(baseId, userId);
}
