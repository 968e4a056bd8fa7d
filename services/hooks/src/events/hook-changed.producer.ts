import { randomUUID } from 'node:crypto';
import { ChangeAction, HookChangedSchema, encodeEvent, timestampNow, topics } from '@tabula/contracts';
import type { HooksPorts } from '../ports';

const ACTIONS = { created: ChangeAction.CREATED, updated: ChangeAction.UPDATED, deleted: ChangeAction.DELETED } as const;

/**
 * `hooks.hook.{created,updated,deleted}` (topic `hooks`, key = table id), after
 * the change committed. Readers that cache what hooks a table has (data's
 * "has sync hooks" flag) drop their entry. Best effort: a bus failure is logged,
 * never fails the request; those caches also expire on their own.
 */
export async function publishHookChanged(
  ports: Pick<HooksPorts, 'bus' | 'logger'>, action: keyof typeof ACTIONS, change: { baseId: string; tableId: string; hookId?: string },
): Promise<void> {
  const eventId = randomUUID();
  const type = `hooks.hook.${action}`;
  const payload = encodeEvent(HookChangedSchema, {
    eventId, action: ACTIONS[action], baseId: change.baseId, tableId: change.tableId, hookId: change.hookId ?? '', occurredAt: timestampNow(),
  });
  try {
    await ports.bus.publish([{ id: eventId, topic: topics.hooks, key: change.tableId, type, payload }]);
  } catch (err) {
    ports.logger.warn({ err, table: change.tableId }, 'hook change event not published');
  }
}
