import { AppError } from '@tabula/http';
import type { Logger } from '@tabula/telemetry';
import type { TableHandle } from '../context/table-handle';
import type { CommittedChange } from '../events/records-event.producer';
import type { HooksClient } from './service-clients';

export type { CommittedChange } from '../events/records-event.producer';

/** Tables failing at once past which the hooks service itself counts as down. */
const FAILING_TABLES_FOR_OUTAGE = 3;

/** Tables whose "has sync hooks" answers are kept at most (the map is cleared when full). */
const MAX_FLAG_TABLES = 10_000;

/**
 * `async: false` hooks are delivered before the record API answers: after the
 * commit, data hands the change to the hooks service (`dispatch-sync`) with
 * the outbox event's id, so the bus copy arriving later is a duplicate there.
 *
 * Most tables have no sync hook, so asking on every write would cost each write
 * a call and a lookup in hooks. Instead the answer ("this table has no sync hook
 * for records.after.insert/bulkInsert…") is cached per table and event kind, and
 * dropped when the hooks service announces a change of that table's hooks
 * (`hooks.hook.*` events: {@link invalidate}) or after `flagTtlMs`. While the
 * flag says "none", writes make no call at all. Staleness: a hook created just
 * now is honoured synchronously once its event reached this process (bus
 * latency, milliseconds); if that event is lost, after `flagTtlMs` at worst.
 * Until then its deliveries still happen, through the bus (asynchronously).
 * "Has sync hooks" answers are not cached: such tables ask on every write.
 *
 * The same answer says whether the table has any `before` hook. The
 * `records.before.*` events are advisory (published before the write, lost
 * when the bus fails, sent even when the write then fails) and only hooks
 * consume them: while this process knows the table has no before hook
 * ({@link mayHaveBeforeHooks} false) the write publishes none, saving an
 * encode and a bus round trip per write. Unknown means "may have": the first
 * write to a table, and the first after a hook event or the TTL dropped the
 * answer, publish. Staleness as above: a before hook created just now is
 * honoured by the data process hooks told directly at once, by other replicas
 * once the hook event reached them, and after `flagTtlMs` at worst.
 *
 * A refused or failed call pauses sync calls for that table only (`pauseMs`;
 * the bus delivers meanwhile), so one tenant's failing table never holds back
 * another's hooks. Only when several tables fail within one pause — the hooks
 * service is down, not one table's input — are all calls paused.
 */
export class SyncHooksClient {
  private pausedUntil = 0;
  private readonly tablePausedUntil = new Map<string, number>();
  /** tableId → (event type + operation → "no sync hook" known until). */
  private readonly noSyncHooks = new Map<string, Map<string, number>>();
  /** tableId → "no before hook" known until. */
  private readonly noBeforeHooks = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly hooks: HooksClient, private readonly logger: Logger, private readonly pauseMs = 2_000,
    private readonly flagTtlMs = 10_000, private readonly now = () => Date.now(),
  ) {}

  /** Drops the cached answers of a table (a hook of it was created, changed or deleted), or of every table. */
  invalidate(tableId?: string): void {
    this.generation += 1;
    if (tableId) {
      this.noSyncHooks.delete(tableId);
      this.noBeforeHooks.delete(tableId);
    } else {
      this.noSyncHooks.clear();
      this.noBeforeHooks.clear();
    }
  }

  /** False only while the cache knows the table has no `before` hook (its writes then publish no records.before event). */
  mayHaveBeforeHooks(tableId: string): boolean {
    return !((this.noBeforeHooks.get(tableId) ?? 0) > this.now());
  }

  /** True when the cache knows the table has no sync hook for this change (no call needed). */
  knownWithout(tableId: string, kind: string): boolean {
    return (this.noSyncHooks.get(tableId)?.get(kind) ?? 0) > this.now();
  }

  async dispatch(handle: TableHandle, committed: CommittedChange[]): Promise<void> {
    if (this.paused(handle.tableId)) return;
    for (const { change, eventId, type } of committed) {
      const kind = `${type}\u0000${change.op}`;
      if (this.knownWithout(handle.tableId, kind)) continue;
      const generation = this.generation;
      const user = change.principal?.kind === 'user' ? { id: change.principal.id, email: change.principal.email ?? '' } : undefined;
      try {
        const answer = await this.hooks.dispatchSync({
          body: {
            eventId, type, operation: change.op, baseId: handle.baseId, tableId: handle.tableId,
            tableTitle: handle.model.context.table.title, user, rows: change.rows, previousRows: change.previousRows,
          },
        });
        this.tablePausedUntil.delete(handle.tableId);
        if (!answer.sync_hooks) this.remember(handle.tableId, kind, generation);
        if (answer.before_hooks === false) this.rememberNoBefore(handle.tableId, generation);
        else this.noBeforeHooks.delete(handle.tableId);
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

  /** Caches a "no sync hook" answer, unless a hook event arrived while it was asked (it may be stale). */
  private remember(tableId: string, kind: string, generation: number): void {
    if (generation !== this.generation || this.flagTtlMs <= 0) return;
    let kinds = this.noSyncHooks.get(tableId);
    if (!kinds) {
      if (this.noSyncHooks.size >= MAX_FLAG_TABLES) this.noSyncHooks.clear();
      kinds = new Map();
      this.noSyncHooks.set(tableId, kinds);
    }
    kinds.set(kind, this.now() + this.flagTtlMs);
  }

  /** Caches a "no before hook" answer, unless a hook event arrived while it was asked. */
  private rememberNoBefore(tableId: string, generation: number): void {
    if (generation !== this.generation || this.flagTtlMs <= 0) return;
    if (!this.noBeforeHooks.has(tableId) && this.noBeforeHooks.size >= MAX_FLAG_TABLES) this.noBeforeHooks.clear();
    this.noBeforeHooks.set(tableId, this.now() + this.flagTtlMs);
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
