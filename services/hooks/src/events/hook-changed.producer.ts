import { randomUUID } from 'node:crypto';
import { ChangeAction, HookChangedSchema, encodeEvent, timestampNow, topics } from '@tabula/contracts';
import type { HooksPorts } from '../ports';

const ACTIONS = { created: ChangeAction.CREATED, updated: ChangeAction.UPDATED, deleted: ChangeAction.DELETED } as const;

/**
 * `hooks.hook.{created,updated,deleted}` (topic `hooks`, key = table id), after
 * the change committed. Readers that cache what hooks a table has (data's
 * "has sync hooks" flag) drop their entry. Data is also told directly first
 * (`syncHooksChanged`, at most 1 s), so the data process that serves the next
 * write honours a sync hook created just now; other replicas follow the event.
 * Best effort: a failure is logged, never fails the request; those caches also
 * expire on their own.
 */
export async function publishHookChanged(
  ports: Pick<HooksPorts, 'bus' | 'logger' | 'data'>, action: keyof typeof ACTIONS, change: { baseId: string; tableId: string; hookId?: string },
): Promise<void> {
  await tellData(ports, change.tableId);
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

/** Data's cached sync-hook answers of the table go before the change is answered (bounded to 1 s; the event follows anyway). */
async function tellData(ports: Pick<HooksPorts, 'logger' | 'data'>, tableId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ports.data.syncHooksChanged({ params: { tableId } }),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('data did not answer within 1 s')), 1_000); }),
    ]);
  } catch (err) {
    ports.logger.warn({ err, table: tableId }, 'data not told of a hook change (its event follows)');
  } finally {
    clearTimeout(timer);
  }
}
