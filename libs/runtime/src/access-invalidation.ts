import { randomUUID } from 'node:crypto';
import { decodeEvent, MembershipChangedSchema, topics } from '@tabula/contracts';
import type { SharedPorts } from './boot';
import type { Worker } from './service-definition';

/**
 * Keeps this process's BaseAccess cache honest: every process (each replica of
 * each service) listens on its own ephemeral group for the auth service's
 * membership changes and drops the cached role at once.
 */
export async function startAccessInvalidation(shared: SharedPorts): Promise<Worker> {
  const subscription = await shared.bus.subscribe({
    group: `base-access-${randomUUID()}`,
    topics: [topics.auth],
    fromBeginning: false,
    ephemeral: true,
    handler: async (message) => {
      if (message.type !== 'auth.membership.changed') return;
      const event = decodeEvent(MembershipChangedSchema, message.payload);
      shared.baseAccess.invalidate(event.baseId, event.userId);
    },
  });
  return { stop: () => subscription.close() };
}
