import { BaseChangedSchema, decodeEvent, topics } from '@tabula/contracts';
import { handleOnce, type EventMessage, type Subscription } from '@tabula/events';
import type { AuthPorts } from '../ports';
import { deleteApiTokensOfBase } from '../repositories/api-token.repository';
import { removeBaseMembers } from '../repositories/base-member.repository';
import { AUTH_SCHEMA } from '../repositories/schema';

const CONSUMER = 'auth.base-deleted';

/** Forgets a deleted base's memberships and base-scoped tokens (once per event). */
export async function onBaseDeleted(ports: AuthPorts, message: EventMessage): Promise<void> {
  if (message.type !== 'meta.base.deleted') return;
  const { baseId } = decodeEvent(BaseChangedSchema, message.payload);
  if (!baseId) return;
  await handleOnce(ports.db, AUTH_SCHEMA, CONSUMER, message.id, async (trx) => {
    await removeBaseMembers(trx, baseId);
    await deleteApiTokensOfBase(trx, baseId);
  });
  ports.baseAccess.invalidate(baseId);
}

/** Subscribes the auth service (one group shared by its replicas) to `meta.base.deleted`. */
export function consumeBaseDeleted(ports: AuthPorts): Promise<Subscription> {
  return ports.bus.subscribe({ group: 'auth-base-deleted', topics: [topics.meta], handler: (message) => onBaseDeleted(ports, message) });
}
