import { hooksInternal } from '@tabula/contracts';
import { AppError, clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';
import type { Logger } from '@tabula/telemetry';
import type { TableHandle } from '../context/table-handle';
import type { CommittedChange } from './records-event.producer';

export type { CommittedChange } from './records-event.producer';


/**
 * `async: false` hooks are delivered before the record API answers: after the
 * commit, data hands the change to the hooks service (`dispatch-sync`) with
 * the outbox event's id, so the bus copy arriving later is a duplicate there.
 * Every write asks (one indexed lookup in hooks when the table has no sync
 * hook), so a hook created a moment ago is honoured at once. When the hooks
 * service cannot be reached, calls pause for `pauseMs` and the bus delivers.
 */
export class SyncHooksDispatcher {
  private pausedUntil = 0;

  private readonly hooks: EndpointClient<typeof hooksInternal>;

  constructor(services: ServiceClient, private readonly logger: Logger, private readonly pauseMs = 2_000) {
    this.hooks = clientOf(services, hooksInternal);
  }

  async dispatch(handle: TableHandle, committed: CommittedChange[]): Promise<void> {
    if (this.pausedUntil > Date.now()) return;
    for (const { change, eventId, type } of committed) {
      const user = change.principal?.kind === 'user' ? { id: change.principal.id, email: change.principal.email ?? '' } : undefined;
      try {
        const answer = await this.hooks.dispatchSync({
          body: {
            eventId, type, operation: change.op, baseId: handle.baseId, tableId: handle.tableId,
            tableTitle: handle.model.context.table.title, user, rows: change.rows, previousRows: change.previousRows,
          },
        });
        if (!answer.sync_hooks) return;
      } catch (err) {
        if (err instanceof AppError) {
          this.pausedUntil = Date.now() + this.pauseMs;
          this.logger.warn({ status: err.status, table: handle.tableId }, 'sync hook dispatch refused; the bus delivers');
          return;
        }
        this.pausedUntil = Date.now() + this.pauseMs;
        this.logger.warn({ err, table: handle.tableId }, 'sync hook dispatch failed; the bus delivers');
        return;
      }
    }
  }
}
