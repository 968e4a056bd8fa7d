import type { Principal } from '@tabula/auth';
import type { FeedRow } from '../repositories/feed.repository';
import type { CompiledWhere } from './feed-filter';
import { filterKey, outputOf, type FeedOut } from './feed-output';

/** Why a stream ended on the server's side. */
export type EndReason = 'revoked' | 'deleted' | 'overflow' | 'shutdown';

/** Where a subscription's output goes (an SSE response, or one subscription of a WebSocket). */
export interface FeedSink {
  /** Sends one event (made once for every alike stream); false when the client's buffer is over its bound (the hub then ends the subscription). */
  event(out: FeedOut): boolean;
  /** True while the client's unsent bytes are at the bound (a replay then waits for {@link drained}). */
  backlogged(): boolean;
  /** Resolves when the client has read its backlog (or is gone). */
  drained(): Promise<void>;
  /** `event: reset`: the resume id is older than the retained log. */
  reset(): void;
  /** The last frame and the close. `lastId`: the last event id delivered. */
  end(reason: EndReason, lastId: string | undefined): void;
}

/** What a subscription asks for. */
export interface SubscriptionSpec {
  principal: Principal;
  kind: 'table' | 'base';
  /** The table id (table streams) or base id. */
  scopeId: string;
  baseId: string;
  /** Table streams: compiled at open; base streams: per table, by `whereFor`. */
  where?: CompiledWhere;
  whereText?: string;
  fields?: string[];
  lastEventId?: string;
}

/** What a subscription needs of its hub. */
export interface SubscriptionOwner {
  end(sub: Subscription, reason: EndReason): void;
  whereFor(tableId: string, where: string): Promise<CompiledWhere | undefined>;
}

/** Events a subscription holds while its replay runs; beyond, it is ended as a slow consumer. */
const MAX_PENDING = 50_000;

/** One open stream or WebSocket subscription. */
export class Subscription {
  /** Seq of the last event handled (delivered or filtered out): nothing at or below it is sent again. */
  handled = 0;
  /** The last event id sent to the client. */
  lastSent: string | undefined;
  catchingUp = true;
  pending: FeedRow[] = [];
  closed = false;
  /** Its row in the cluster-wide count (realtime.stream_leases) while it counts there. */
  leaseId: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Its filter's key (streams with the same key share each row's output); base streams with `where`: per table. */
  private readonly key: string | undefined;

  constructor(readonly spec: SubscriptionSpec, readonly sink: FeedSink, private readonly owner: SubscriptionOwner) {
    this.key = spec.kind === 'base' && spec.whereText ? undefined : filterKey(spec.where, spec.fields);
  }

  /** Whether a live row goes out now: not once closed or already handled; queued (bounded) while a replay runs. */
  private isDue(row: FeedRow): boolean {
    if (this.closed || row.n <= this.handled) return false;
    if (!this.catchingUp) return true;
    if (this.pending.length >= MAX_PENDING) this.owner.end(this, 'overflow');
    else this.pending.push(row);
    return false;
  }

  /** A live row from the hub. */
  offer(row: FeedRow): void {
    if (!this.isDue(row)) return;
    this.deliver(row);
  }

  /**
   * A live record row of this table stream's table (the hub's index by table
   * says so: {@link carries} need not be asked): the fan-out's per-stream path.
   */
  offerRecord(row: FeedRow): void {
    if (!this.isDue(row)) return;
    this.handled = row.n;
    this.send(row, this.spec.where);
  }

  /** Sends a row (through `where` and `fields`) unless handled already; in order, also when the filter loads a table. */
  deliver(row: FeedRow): void {
    if (this.closed || row.n <= this.handled) return;
    this.handled = row.n;
    if (!this.carries(row)) return;
    const needsTable = this.spec.kind === 'base' && this.spec.whereText && row.record;
    if (!needsTable) {
      this.send(row, this.spec.where);
      return;
    }
    this.chain = this.chain.then(async () => {
      const where = await this.owner.whereFor(row.table_id, this.spec.whereText as string);
      if (where) this.send(row, where);
    }).catch(() => undefined);
  }

  private carries(row: FeedRow): boolean {
    if (this.spec.kind === 'table') return row.record && row.table_id === this.spec.scopeId;
    return row.base_id === this.spec.scopeId && row.type !== 'meta.base.deleted';
  }

  private send(row: FeedRow, where: CompiledWhere | undefined): void {
    if (this.closed) return;
    const out = outputOf(row, this.key ?? filterKey(where, this.spec.fields), where, this.spec.fields);
    if (!out) return;
    if (!this.sink.event(out)) {
      this.owner.end(this, 'overflow');
      return;
    }
    this.lastSent = row.seq;
  }
}
