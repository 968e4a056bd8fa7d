import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  ChangeAction, InvalidationReason, MembershipChangedSchema, PrincipalInvalidatedSchema,
  encodeEvent, timestampNow, topics,
} from '@tabula/contracts';
import { enqueueEvent } from '@tabula/events';
import { AUTH_SCHEMA } from '../repositories/schema';

const TYPES: Record<InvalidationReason, string> = {
  [InvalidationReason.UNSPECIFIED]: 'auth.user.invalidated',
  [InvalidationReason.SIGNED_OUT]: 'auth.user.signed_out',
  [InvalidationReason.PASSWORD_CHANGED]: 'auth.user.password_changed',
  [InvalidationReason.TOKEN_REVOKED]: 'auth.token.revoked',
  [InvalidationReason.USER_DELETED]: 'auth.user.deleted',
  [InvalidationReason.ROLES_CHANGED]: 'auth.user.roles_changed',
};

/**
 * `auth.user.signed_out` / `auth.user.password_changed` / `auth.token.revoked`:
 * cached principals must go. Written to `auth.outbox` in the caller's
 * transaction (the one that revoked), so it is published if and only if the
 * revocation committed, even when the bus is down at that moment (the relay retries).
 */
export async function enqueuePrincipalInvalidated(trx: Knex, userId: string, reason: InvalidationReason, tokenId?: string): Promise<void> {
  const payload = encodeEvent(PrincipalInvalidatedSchema, {
    eventId: randomUUID(), userId, tokenId, reason, occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, AUTH_SCHEMA, { topic: topics.auth, key: userId, type: TYPES[reason], payload });
}

/** `auth.membership.changed`: a base role was granted, changed or revoked; enqueued in the change's transaction. */
export async function enqueueMembershipChanged(
  trx: Knex,
  change: { action: ChangeAction; baseId: string; userId: string; role: string; actor?: { id: string; email?: string } },
): Promise<void> {
  const payload = encodeEvent(MembershipChangedSchema, {
    eventId: randomUUID(), action: change.action, baseId: change.baseId, userId: change.userId, role: change.role,
    user: change.actor ? { id: change.actor.id, email: change.actor.email ?? '' } : undefined, occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, AUTH_SCHEMA, { topic: topics.auth, key: change.userId, type: 'auth.membership.changed', payload });
}
