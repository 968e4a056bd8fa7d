import { randomUUID } from 'node:crypto';
import {
  ChangeAction, InvalidationReason, MembershipChangedSchema, PrincipalInvalidatedSchema,
  encodeEvent, timestampNow, topics,
} from '@tabula/contracts';
import type { CommonPorts } from '@tabula/runtime';

type Ports = Pick<CommonPorts, 'bus' | 'logger'>;

const TYPES: Record<InvalidationReason, string> = {
  [InvalidationReason.UNSPECIFIED]: 'auth.user.invalidated',
  [InvalidationReason.SIGNED_OUT]: 'auth.user.signed_out',
  [InvalidationReason.PASSWORD_CHANGED]: 'auth.user.password_changed',
  [InvalidationReason.TOKEN_REVOKED]: 'auth.token.revoked',
  [InvalidationReason.USER_DELETED]: 'auth.user.deleted',
  [InvalidationReason.ROLES_CHANGED]: 'auth.user.roles_changed',
};

/**
 * Publishes after the change committed. A lost event only delays revocation
 * until the gateway's short principal cache expires, and the caller's own
 * gateway already drops its entry on success, so a failure is logged, not thrown.
 */
async function publish(ports: Ports, key: string, type: string, payload: Uint8Array): Promise<void> {
  try {
    await ports.bus.publish([{ topic: topics.auth, key, type, payload }]);
  } catch (err) {
    ports.logger.error({ err, type, key }, 'auth event publish failed');
  }
}

/** `auth.user.signed_out` / `auth.user.password_changed` / `auth.token.revoked`: cached principals must go. */
export function publishPrincipalInvalidated(ports: Ports, userId: string, reason: InvalidationReason, tokenId?: string): Promise<void> {
  const payload = encodeEvent(PrincipalInvalidatedSchema, {
    eventId: randomUUID(), userId, tokenId, reason, occurredAt: timestampNow(),
  });
  return publish(ports, userId, TYPES[reason], payload);
}

/** `auth.membership.changed`: a base role was granted, changed or revoked. */
export function publishMembershipChanged(
  ports: Ports,
  change: { action: ChangeAction; baseId: string; userId: string; role: string; actor?: { id: string; email?: string } },
): Promise<void> {
  const payload = encodeEvent(MembershipChangedSchema, {
    eventId: randomUUID(), action: change.action, baseId: change.baseId, userId: change.userId, role: change.role,
    user: change.actor ? { id: change.actor.id, email: change.actor.email ?? '' } : undefined, occurredAt: timestampNow(),
  });
  return publish(ports, change.userId, 'auth.membership.changed', payload);
}
