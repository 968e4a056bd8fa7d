import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ColumnMeta } from '@tabula/query';
import { handleOnce } from '@tabula/events';
import type { HooksPorts } from '../ports';
import { captureTraceContext } from '@tabula/telemetry';
import { activeHooksOf, type HookRow } from '../repositories/hook.repository';
import { filtersOfHooks } from '../repositories/hook-filter.repository';
import { insertDeliveries, type NewDelivery } from '../repositories/delivery.repository';
import { HOOKS_SCHEMA } from '../repositories/hooks-db';
import { buildPayload, v2Operation } from './payload-builder';
import { hookFilter, hookMatchesOperation, selectRows } from './match-hooks';
import { columnMetas, loadTable } from './table-context';
import type { RecordsEvent } from './records-event';

/** The fixed consumer group (and processed_events consumer name) of the hooks service. */
export const HOOKS_CONSUMER = 'hooks';

async function planDeliveries(ports: HooksPorts, db: Knex, evt: RecordsEvent, hooks: HookRow[]): Promise<NewDelivery[]> {
  const filters = await filtersOfHooks(db, hooks.map((h) => h.id));
  const needsColumns = filters.length > 0 || hooks.some((h) => h.trigger_field && h.trigger_fields.length);
  const columns: ColumnMeta[] = needsColumns ? columnMetas((await loadTable(ports, evt.tableId)).table.columns) : [];
  const out: NewDelivery[] = [];
  const traceContext = captureTraceContext() ?? null;
  for (const hook of hooks) {
    let filter;
    try {
      filter = hookFilter(filters.filter((f) => f.fk_hook_id === hook.id), columns);
    } catch (err) {
      ports.logger.warn({ err, hook: hook.id }, 'hook filters no longer valid: hook skipped');
      continue;
    }
    const selected = selectRows(hook, evt.operation, evt, columns, filter);
    if (!selected.rows.length) continue;
    const payload = buildPayload(hook.version, { ...evt, ...selected });
    out.push({
      id: randomUUID(), hook_id: hook.id, event_id: evt.eventId, event: evt.event, operation: v2Operation(evt.operation),
      payload, user: evt.user ?? null, trace_context: traceContext,
    });
  }
  return out;
}

/**
 * Turns one records event into deliveries, at most once per event id: the
 * processed-event row and the delivery rows commit together. Returns the
 * deliveries it scheduled (empty for a duplicate).
 */
export async function ingestEvent(ports: HooksPorts, evt: RecordsEvent): Promise<NewDelivery[]> {
  const hooks = (await activeHooksOf(ports.db, evt.tableId, evt.event)).filter((h) => hookMatchesOperation(h, evt.operation));
  if (!hooks.length) return [];
  const planned = await planDeliveries(ports, ports.db, evt, hooks);
  let scheduled: NewDelivery[] = [];
  await handleOnce(ports.db, HOOKS_SCHEMA, HOOKS_CONSUMER, evt.eventId, async (trx) => {
    await insertDeliveries(trx, planned);
    scheduled = planned;
  });
  if (scheduled.length) ports.wake.kick();
  return scheduled;
}
