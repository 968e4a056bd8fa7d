import { hooksInternal } from '@tabula/contracts';
import { AppError, clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';
import type { Logger } from '@tabula/telemetry';
import type { TableHandle } from '../context/table-handle';
import type { CommittedChange } from '../events/records-event.producer';

export type { CommittedChange } from '../events/records-event.producer';

/** Tables failing at once past which the hooks service itself counts as down. */
const FAILING_TABLES_FOR_OUTAGE = 3;

/**
 * `async: false` hooks are delivered before the record API answers: after the
 * commit, data hands the change to the hooks service (`dispatch-sync`) with
 * the outbox event's id, so the bus copy arriving later is a duplicate there.
 * Every write asks (one indexed lookup in hooks when the table has no sync
 * hook), so a hook created a moment ago is honoured at once.
 *
 * A refused or failed call pauses sync calls for that table only (`pauseMs`;
 * the bus delivers meanwhile), so one tenant's failing table never holds back
 * another's hooks. Only when several tables fail within one pause — the hooks
 * service is down, not one table's input — are all calls paused.
 */
export class SyncHooksClient {
  private pausedUntil = 0;
  private readonly tablePausedUntil = new Map<string, number>();

  private readonly hooks: EndpointClient<typeof hooksInternal>;

  constructor(services: ServiceClient, private readonly logger: Logger, private readonly pauseMs = 2_000) {
    this.hooks = clientOf(services, hooksInternal);
  }

  async dispatch(handle: TableHandle, committed: CommittedChange[]): Promise<void> {
    if (this.paused(handle.tableId)) return;
    for (const { change, eventId, type } of committed) {
      const user = change.principal?.kind === 'user' ? { id: change.principal.id, email: change.principal.email ?? '' } : undefined;
      try {
        const answer = await this.hooks.dispatchSync({
          body: {
            eventId, type, operation: change.op, baseId: handle.baseId, tableId: handle.tableId,
            tableTitle: handle.model.context.table.title, user, rows: change.rows, previousRows: change.previousRows,
          },
        });
        this.tablePausedUntil.delete(handle.tableId);
        if (!answer.sync_hooks) return;
      } catch (err) {
        this.pause(handle.tableId);
        if (err instanceof AppError) {
          this.logger.warn({ status: err.status, table: handle.tableId }, 'sync hook dispatch refused; the bus delivers');
          return;
        }
        this.logger.warn({ err, table: handle.tableId }, 'sync hook dispatch failed; the bus delivers');
        return;
      }
    }
  }

  private paused(tableId: string): boolean {
    const now = Date.now();
    return this.pausedUntil > now || (this.tablePausedUntil.get(tableId) ?? 0) > now;
  }

  private pause(tableId: string): void {
    const now = Date.now();
    for (const [id, until] of this.tablePausedUntil) if (until <= now) this.tablePausedUntil.delete(id);
    this.tablePausedUntil.set(tableId, now + this.pauseMs);
    if (this.tablePausedUntil.size >= FAILING_TABLES_FOR_OUTAGE) this.pausedUntil = now + this.pauseMs;
  }
}
