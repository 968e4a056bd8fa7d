import type { HooksPorts } from '../ports';
import { runInStoredContext } from '@tabula/telemetry';
import { findHook, updateHook, type HookRow } from '../repositories/hook.repository';
import type { DeliveryRow } from '../repositories/delivery.repository';
import { announceHookChange } from '../cache/hook-changes';
import { attemptLogRow } from './attempt-log';
import { executeHook } from './execute-hook';
import { nextDelayMs, outcomeOf } from './retry-policy';

/**
 * Runs one claimed attempt of a delivery: sends it, logs it, then marks it
 * succeeded, failed (out of retries, or 410 which also deactivates the hook) or
 * schedules the next attempt. A deleted or deactivated hook cancels it.
 * `known.hook` is the hook row the delivery was just planned with (direct
 * hand-off, read from the hook cache a moment ago); without it the hook is read
 * here. `known.eventAt` (ms) is when the records event was written.
 */
export function processDelivery(ports: HooksPorts, delivery: DeliveryRow, known?: Known): Promise<void> {
  const attributes = { 'tabula.delivery.id': delivery.id, 'tabula.hook.id': delivery.hook_id, 'tabula.delivery.attempt': delivery.attempt };
  return runInStoredContext(delivery.trace_context, 'deliver webhook', attributes, () => attempt(ports, delivery, known));
}

/** Backoff of {@link recordPersistently}: about 20 s in all, longer than a PostgreSQL restart. */
const RECORD_DELAYS_MS = [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000];

/**
 * Runs one write of an attempt's outcome, retrying while the database is
 * unreachable. A retry after a lost answer at worst repeats an idempotent
 * status update or adds a second log line. After the last try the error
 * propagates and the delivery's lock expiry takes over (another attempt: at
 * least once).
 */
export async function recordPersistently(write: () => Promise<unknown>, delaysMs: readonly number[] = RECORD_DELAYS_MS): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await write();
      return;
    } catch (err) {
      if (tries >= delaysMs.length) throw err;
      await new Promise((r) => setTimeout(r, delaysMs[tries]));
    }
  }
}

/** What the caller already knows about a delivery. */
export interface Known {
  hook?: HookRow;
  eventAt?: number;
  /** Called once the target answered (or the delivery was found cancelled), before the outcome is written. */
  onSent?: () => void;
}

async function attempt(ports: HooksPorts, delivery: DeliveryRow, known?: Known): Promise<void> {
  const deliveries = ports.metrics.counter('hook_deliveries_total', 'Hook delivery attempts by outcome (succeeded, retry, failed, gone, cancelled)', ['outcome']);
  const hook = known?.hook ?? await findHook(ports.db, delivery.hook_id);
  if (!hook || (!hook.active && !delivery.test_call)) {
    known?.onSent?.();
    await ports.completions.record({ deliveryId: delivery.id, status: 'cancelled' });
    deliveries.inc({ outcome: 'cancelled' });
    return;
  }
  const { request, result } = await executeHook(ports, hook, delivery.id, delivery.payload, delivery.user);
  known?.onSent?.();
  ports.stages.send.observe(result.executionTime / 1000);
  if (delivery.attempt === 1 && known?.eventAt) ports.stages.endToEnd.observe(Math.max(0, Date.now() - known.eventAt) / 1000);
  const log = attemptLogRow({
    hook, deliveryId: delivery.id, attempt: delivery.attempt, event: delivery.event, operation: delivery.operation,
    request, result, triggeredBy: delivery.user?.email ?? delivery.user?.id ?? null, testCall: delivery.test_call,
  });
  const outcome = outcomeOf(result.ok, result.status, delivery.attempt, hook.retries);
  deliveries.inc({ outcome });
  // The call went out: its outcome must be recorded even if PostgreSQL blinks now, or the
  // delivery stays locked until its lock expires and the receiver gets it a second time.
  if (outcome === 'retry') {
    const delay = nextDelayMs(hook.retry_interval, result.status, result.headers?.['retry-after']);
    await recordPersistently(() => ports.completions.record({ deliveryId: delivery.id, status: 'pending', nextAttemptAt: new Date(Date.now() + delay), log }));
    return;
  }
  await recordPersistently(() => ports.completions.record({ deliveryId: delivery.id, status: outcome === 'succeeded' ? 'succeeded' : 'failed', log }));
  if (outcome === 'gone') {
    await updateHook(ports.db, hook.id, { active: false });
    await announceHookChange(ports.db, ports.hookCache, [hook.fk_model_id]);
    ports.logger.warn({ hook: hook.id }, 'hook target answered 410 Gone: hook deactivated');
  }
}
