import { randomUUID } from 'node:crypto';
import type { ColumnMeta } from '@tabula/query';
import type { HooksPorts } from '../ports';
import { captureTraceContext } from '@tabula/telemetry';
import type { HookRow } from '../repositories/hook.repository';
import { ingestDeliveries, type DeliveryRow, type NewDelivery, type PlannedDelivery } from '../repositories/delivery.repository';
import type { TableHooks } from '../cache/hook-cache';
import type { ClaimedDelivery } from '../adapters/wake';
import { buildPayload, v2Operation } from './payload-builder';
import { hookFilter, hookMatchesOperation, selectRows } from './match-hooks';
import { columnMetas, loadTable } from './table-context';
import type { RecordsEvent } from './records-event';

/** The fixed consumer group (and processed_events consumer name) of the hooks service. */
export const HOOKS_CONSUMER = 'hooks';

/** How an ingestion hands its deliveries to the sender. */
export interface IngestOptions {
  /** Which fresh deliveries may go straight to this process's worker (default: all, as far as it has room). */
  handOff?: (hook: HookRow) => boolean;
  /**
   * Which fresh deliveries the caller sends itself (dispatch-sync): they are
   * inserted already claimed, never offered to the worker or its poll, and
   * passed to `onClaimed`. Takes precedence over `handOff`.
   */
  claim?: (hook: HookRow) => boolean;
  /** Receives the deliveries inserted claimed for the caller (`claim`). */
  onClaimed?: (claimed: ClaimedDelivery[]) => void;
}

/** The hooks of a table that fire for an event (event stage and operation). */
export function hooksFor(table: TableHooks, evt: Pick<RecordsEvent, 'event' | 'operation'>): HookRow[] {
  return table.hooks.filter((h) => h.event === evt.event && hookMatchesOperation(h, evt.operation));
}

interface Plan {
  delivery: PlannedDelivery;
  hook: HookRow;
  evt: RecordsEvent;
}

async function planDeliveries(ports: HooksPorts, evt: RecordsEvent, hooks: HookRow[], table: TableHooks, columnsOf: (tableId: string) => Promise<ColumnMeta[]>): Promise<Plan[]> {
  const needsColumns = hooks.some((h) => (table.filters.get(h.id)?.length ?? 0) > 0 || (h.trigger_field && h.trigger_fields.length));
  const columns: ColumnMeta[] = needsColumns ? await columnsOf(evt.tableId) : [];
  const out: Plan[] = [];
  const traceContext = evt.traceContext ?? captureTraceContext() ?? null;
  for (const hook of hooks) {
    let filter;
    try {
      filter = hookFilter(table.filters.get(hook.id) ?? [], columns);
    } catch (err) {
      ports.logger.warn({ err, hook: hook.id }, 'hook filters no longer valid: hook skipped');
      continue;
    }
    const selected = selectRows(hook, evt.operation, evt, columns, filter);
    if (!selected.rows.length) continue;
    const payload = buildPayload(hook.version, { ...evt, ...selected });
    out.push({
      hook, evt,
      delivery: {
        id: randomUUID(), hook_id: hook.id, event_id: evt.eventId, event: evt.event, operation: v2Operation(evt.operation),
        payload, user: evt.user ?? null, trace_context: traceContext, handOff: false, timeout: hook.timeout,
      },
    });
  }
  return out;
}

/**
 * Turns records events into deliveries, at most once per event id, in one
 * statement for the whole batch: the processed-event rows and the delivery
 * rows commit together (a redelivered batch, or a duplicate inside it, finds
 * its ids processed and inserts nothing for them). Hooks and filters come from
 * the hook cache. As many fresh deliveries as the local worker has room for are
 * inserted already claimed and handed to it directly; the rest are left pending
 * for its poll (woken at once). Returns the deliveries it scheduled.
 */
export async function ingestEvents(ports: HooksPorts, events: RecordsEvent[], options: IngestOptions = {}): Promise<NewDelivery[]> {
  const unique = [...new Map(events.map((e) => [e.eventId, e])).values()];
  const tables = new Map<string, Promise<TableHooks>>();
  const columns = new Map<string, Promise<ColumnMeta[]>>();
  const columnsOf = (tableId: string) => {
    if (!columns.has(tableId)) columns.set(tableId, loadTable(ports, tableId).then((t) => columnMetas(t.table.columns)));
    return columns.get(tableId)!;
  };
  const eventIds: string[] = [];
  const plans: Plan[] = [];
  for (const evt of unique) {
    if (!tables.has(evt.tableId)) tables.set(evt.tableId, ports.hookCache.get(evt.tableId));
    const table = await tables.get(evt.tableId)!;
    const hooks = hooksFor(table, evt);
    if (!hooks.length) continue;
    eventIds.push(evt.eventId);
    plans.push(...await planDeliveries(ports, evt, hooks, table, columnsOf));
  }
  if (!eventIds.length) return [];
  let room = ports.wake.room();
  let overflow = false;
  const forCaller = new Set<Plan>();
  for (const plan of plans) {
    if (options.claim?.(plan.hook)) {
      plan.delivery.handOff = true;
      forCaller.add(plan);
      continue;
    }
    if (!(options.handOff?.(plan.hook) ?? true)) continue;
    if (room > 0) {
      plan.delivery.handOff = true;
      room -= 1;
    } else overflow = true;
  }
  const { freshEventIds, inserted } = await ingestDeliveries(ports.db, HOOKS_CONSUMER, eventIds, plans.map((p) => p.delivery), ports.workerId);
  const stored = new Map(inserted.map((d) => [d.id, d]));
  const scheduledAt = Date.now();
  const handed: ClaimedDelivery[] = [];
  const claimed: ClaimedDelivery[] = [];
  let pending = 0;
  for (const plan of plans) {
    const row = stored.get(plan.delivery.id);
    if (!row) continue;
    if (row.status !== 'delivering') {
      pending += 1;
      continue;
    }
    const { handOff: _h, timeout: _t, ...fields } = plan.delivery;
    const delivery: DeliveryRow = {
      ...fields, test_call: false, attempt: row.attempt, next_attempt_at: row.next_attempt_at, status: 'delivering', locked_until: row.locked_until,
    };
    (forCaller.has(plan) ? claimed : handed).push({ delivery, hook: plan.hook, scheduledAt, eventAt: plan.evt.writtenAt });
  }
  if (claimed.length) options.onClaimed?.(claimed);
  if (handed.length) ports.wake.handOff(handed);
  if (overflow && pending) ports.wake.overflowed();
  if (pending) ports.wake.kick();
  return plans.filter((p) => freshEventIds.has(p.evt.eventId)).map((p) => {
    const { handOff: _h, timeout: _t, ...fields } = p.delivery;
    return fields;
  });
}

/** {@link ingestEvents} for one event. */
export function ingestEvent(ports: HooksPorts, evt: RecordsEvent, options?: IngestOptions): Promise<NewDelivery[]> {
  return ingestEvents(ports, [evt], options);
}
