import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { roleAllows, type BaseAccess, type BaseRole, type Principal } from '@tabula/auth';
import type { Logger } from '@tabula/telemetry';
import { FeedListener } from '../repositories/feed-listener';
import { lastSeq, pruneFeed, readFeed, type FeedRow } from '../repositories/feed.repository';
import { admitLease, pruneLeases, releaseLease, releaseReplica, renewLeases, restoreLeases } from '../repositories/stream-lease.repository';
import type { CompiledWhere } from './feed-filter';
import { WriteBatch } from './feed-output';
import { replay } from './feed-replay';
import { FeedWheres } from './feed-wheres';
import { Subscription, type EndReason, type FeedSink, type SubscriptionOwner, type SubscriptionSpec } from './feed-subscription';

export { Subscription, type EndReason, type FeedSink, type SubscriptionSpec } from './feed-subscription';

/** The key streams are counted by (SVC_FEED_MAX_STREAMS_PER_PRINCIPAL, across replicas): the user. */
export function principalKey(principal: Principal): string {
  return principal.id;
}

/** Rows per read of the log: the live tail, and a replay's pages (the next page is read while one is delivered). */
const PAGE = 200;

/** A WebSocket as the hub sees it: whose it is, and how it ends when its credential goes or the process stops. */
export interface FeedSocket {
  readonly principal: Principal;
  /** The credential it was opened with is gone (sign-out, password change, revoked token, deleted user). */
  revoke(): void;
  /** The process is stopping: the client reconnects elsewhere. */
  shutdown(): void;
}

/** Settings of a hub. */
export interface FeedHubOptions {
  db: Knex;
  logger: Logger;
  baseAccess: BaseAccess;
  retentionMs: number;
  heartbeatMs: number;
  maxPerPrincipal: number;
  /**
   * Counts streams cluster-wide (realtime.stream_leases) instead of in this
   * process only: leases run this long (ms) and are renewed on every heartbeat.
   */
  leaseMs?: number;
  /** A table's columns, for base streams' `where` (meta's table context). */
  loadWhere(tableId: string, where: string): Promise<CompiledWhere | undefined>;
  /** Fallback poll of the log when no notification came (ms). */
  pollMs?: number;
  /**
   * Reads of the log are at least this far apart (ms; SVC_FEED_BATCH_MS): a
   * read after a quiet spell starts at once, appends in quick succession are
   * read (and written to each client) together, one write per client per read.
   */
  batchMs?: number;
  /**
   * How far apart reads may get when each batch goes to many clients (ms;
   * SVC_FEED_BATCH_MAX_MS): the gap is the time `writesPerSecond` client
   * writes take at the last batch's number of writes, between `batchMs` and
   * this. A client write (a system call, the TCP stack's work on both ends)
   * costs far more than the events it carries: at 1,000 clients and a batch
   * per 20 ms, 50,000 writes a second.
   */
  batchMaxMs?: number;
  /** Client writes per second the spacing aims at (SVC_FEED_WRITES_PER_SECOND). */
  writesPerSecond?: number;
}

/** The longest a read of the log waits for this process's appends under way (see {@link FeedHub.append}). */
export const APPEND_HOLD_MS = 25;

/** Thrown by {@link FeedHub.open} beyond SVC_FEED_MAX_STREAMS_PER_PRINCIPAL. */
export class TooManyStreams extends Error {}

/**
 * This process's streams and the tail of the feed log. The log's appends
 * notify (PostgreSQL NOTIFY, and at once in the process that appended); the
 * hub then reads the rows after the last it saw and offers each to the
 * streams of its table and base. A stream that resumes registers first, then
 * replays the log after its id, then takes what queued meanwhile: every seq
 * at most once, none skipped (appends are serial: seq order is commit order).
 */
export class FeedHub implements SubscriptionOwner {
  /** Frames queued by this process's streams, written out once per batch of rows. */
  readonly writes = new WriteBatch();
  private readonly byTable = new Map<string, Set<Subscription>>();
  private readonly byBase = new Map<string, Set<Subscription>>();
  private readonly byPrincipal = new Map<string, Set<Subscription>>();
  private readonly heartbeatSinks = new Set<{ ping(): boolean; sub: Subscription }>();
  private readonly sockets = new Set<FeedSocket>();
  private readonly wheres: FeedWheres;
  private seen = '0';
  /** The highest seq known to be in the log (appends' notifications, this process's own appends): above `seen`, a read is due. */
  private known = 0;
  /** Rows this process appended, not yet dispatched: taken instead of a read when they follow `seen` without a gap. */
  private inbox: FeedRow[] = [];
  /** The next read also asks the log (the poll: a notification may have been lost). */
  private askLog = false;
  /** This process's appends under way ({@link append}), and since when a read has waited for them. */
  private appendsInFlight = 0;
  private heldSince: number | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  /** When the last read of the log started (performance.now()), and the read waiting for SVC_FEED_BATCH_MS to pass. */
  private lastRead = -Infinity;
  private readTimer: NodeJS.Timeout | undefined;
  private timers: NodeJS.Timeout[] = [];
  private listener: FeedListener | undefined;
  private stopped = false;
  /** This process's name in realtime.stream_leases (a new one each start: a restarted replica's old rows just expire). */
  private replica = randomUUID();

  constructor(private readonly options: FeedHubOptions) {
    this.wheres = new FeedWheres((tableId, where) => options.loadWhere(tableId, where));
  }

  /** How many streams are open in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.byPrincipal.values()) n += set.size;
    return n;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.replica = randomUUID();
    this.seen = await lastSeq(this.options.db);
    this.listener = new FeedListener(this.options.db, this.options.logger, (payload) => this.notified(payload));
    await this.listener.start();
    const poll = setInterval(() => { this.askLog = true; this.wake(); }, this.options.pollMs ?? 1000);
    const heartbeat = setInterval(() => this.heartbeat(), this.options.heartbeatMs);
    const pruneEvery = Math.max(500, Math.min(60_000, Math.floor(this.options.retentionMs / 2)));
    const prune = setInterval(() => { void this.prune(); }, pruneEvery);
    for (const t of [poll, heartbeat, prune]) t.unref();
    this.timers.push(poll, heartbeat, prune);
  }

  /** Ends every stream (`event: reconnect`: the client resumes with its last id, on another replica). */
  endAll(): void {
    if (this.options.leaseMs && this.byPrincipal.size > 0) {
      // one delete of this replica's leases rather than one per stream
      for (const set of this.byPrincipal.values()) for (const sub of set) sub.leaseId = undefined;
      releaseReplica(this.options.db, this.replica).catch((err: unknown) => this.options.logger.warn({ err }, 'feed: releasing the stream leases failed (they expire)'));
    }
    for (const set of [...this.byPrincipal.values()]) for (const sub of [...set]) this.end(sub, 'shutdown');
    for (const socket of [...this.sockets]) socket.shutdown();
    this.sockets.clear();
  }

  /** A WebSocket of this process (its subscriptions are opened one by one with {@link open}). */
  addSocket(socket: FeedSocket): void {
    this.sockets.add(socket);
  }

  removeSocket(socket: FeedSocket): void {
    this.sockets.delete(socket);
  }

  /** How many streams (SSE streams and WebSocket subscriptions) a principal holds in this process. */
  countOf(principal: Principal): number {
    return this.byPrincipal.get(principalKey(principal))?.size ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    clearTimeout(this.readTimer);
    this.readTimer = undefined;
    this.endAll();
    if (this.options.leaseMs) await releaseReplica(this.options.db, this.replica).catch((err: unknown) => this.options.logger.warn({ err }, 'feed: releasing the stream leases failed'));
    await this.reading?.catch(() => undefined);
    await this.listener?.stop();
    this.listener = undefined;
  }

  /**
   * Runs an append of this process and takes its rows ({@link appended}).
   * PostgreSQL's notification of those rows often reaches the listener before
   * the append's own answer; while an append is under way, a read waits for
   * it (at most {@link APPEND_HOLD_MS}), so that the rows are not read back.
   */
  async append(run: () => Promise<FeedRow[]>): Promise<void> {
    this.appendsInFlight += 1;
    let rows: FeedRow[] = [];
    try {
      rows = await run();
    } finally {
      this.appendsInFlight -= 1;
      // a read held for this append goes now (or after the batch gap): wake() recomputes its wait
      clearTimeout(this.readTimer);
      this.readTimer = undefined;
      if (rows.length > 0) this.appended(rows);
      else this.wake();
    }
  }

  /** Rows this process has just appended (in seq order): dispatched without reading them back, unless another replica's came between. */
  appended(rows: FeedRow[]): void {
    if (this.stopped || rows.length === 0) return;
    this.inbox.push(...rows);
    this.notified(rows[rows.length - 1].seq);
  }

  /** The log holds rows up to `seq` (an append's notification; without a seq: look). */
  notified(seq: string | undefined): void {
    const at = Number(seq);
    if (seq && Number.isSafeInteger(at)) this.known = Math.max(this.known, at);
    else this.askLog = true;
    this.wake();
  }

  /**
   * The least time between reads of the log: SVC_FEED_BATCH_MS, or more when
   * the last batch took more client writes than SVC_FEED_WRITES_PER_SECOND
   * allows at that pace (up to SVC_FEED_BATCH_MAX_MS).
   */
  batchGap(): number {
    const floor = this.options.batchMs ?? 0;
    const { batchMaxMs, writesPerSecond } = this.options;
    if (!batchMaxMs || !writesPerSecond || batchMaxMs <= floor) return floor;
    return Math.min(batchMaxMs, Math.max(floor, (this.writes.lastWrites * 1000) / writesPerSecond));
  }

  /**
   * Until when a read waits for this process's appends under way (their rows
   * come by {@link append}, without a read): at most {@link APPEND_HOLD_MS}
   * after it first waited; not when the poll asks the log.
   */
  private holdUntil(): number {
    if (this.appendsInFlight === 0 || this.askLog) {
      this.heldSince = undefined;
      return -Infinity;
    }
    this.heldSince ??= performance.now();
    return this.heldSince + APPEND_HOLD_MS;
  }

  /** Reads the log's new rows soon (an append happened): now, or once {@link batchGap} has passed since the last read. */
  wake(): void {
    if (this.stopped) return;
    if (this.reading) { this.again = true; return; }
    if (this.readTimer) return;
    const wait = Math.max(this.lastRead + this.batchGap(), this.holdUntil()) - performance.now();
    if (wait > 0) {
      this.readTimer = setTimeout(() => { this.readTimer = undefined; this.wake(); }, wait);
      return;
    }
    this.heldSince = undefined;
    this.lastRead = performance.now();
    this.reading = this.readNew().catch((err: unknown) => this.options.logger.warn({ err }, 'feed: reading the log failed'))
      .finally(() => {
        this.reading = undefined;
        if (this.again) { this.again = false; this.wake(); }
      });
  }

  /** Registers a subscription, replays from its resume id (or sends `reset`), then lets it go live. */
  async open(spec: SubscriptionSpec, sink: FeedSink, beforeReplay?: () => void): Promise<Subscription> {
    const key = principalKey(spec.principal);
    const mine = this.byPrincipal.get(key);
    if ((mine?.size ?? 0) >= this.options.maxPerPrincipal) throw new TooManyStreams();
    const sub = new Subscription(spec.kind === 'table' && spec.where ? { ...spec, where: this.wheres.share(spec.scopeId, spec.where) } : spec, sink, this);
    if (this.options.leaseMs) {
      // Cluster-wide: admitted only while the principal holds fewer than the cap over every replica.
      const leaseId = randomUUID();
      if (!await admitLease(this.options.db, { id: leaseId, principal: key, replica: this.replica }, this.options.leaseMs, this.options.maxPerPrincipal)) throw new TooManyStreams();
      sub.leaseId = leaseId;
      if (this.stopped) { this.release(sub); throw new Error('the feed is stopping'); }
    }
    this.add(sub);
    try {
      beforeReplay?.();
      await replay(this.options.db, sub);
    } catch (err) {
      this.remove(sub);
      throw err;
    }
    return sub;
  }

  /** Adds a heartbeat target (SSE streams). */
  addHeartbeat(sub: Subscription, ping: () => boolean): void {
    this.heartbeatSinks.add({ sub, ping });
  }

  /** Ends a subscription with its last frame (the sink's close). */
  end(sub: Subscription, reason: EndReason): void {
    if (sub.closed) return;
    sub.closed = true;
    this.remove(sub);
    sub.sink.end(reason, sub.lastSent);
  }

  /** The client went away: forget the subscription. Resolves when it no longer counts against the cap. */
  drop(sub: Subscription): Promise<void> {
    sub.closed = true;
    return this.remove(sub);
  }

  /** A base stream's `where` for one table (cached; undefined when it names fields the table lacks). */
  whereFor(tableId: string, where: string): Promise<CompiledWhere | undefined> {
    return this.wheres.forTable(tableId, where);
  }

  /** Sign-out, password change, deletion (every session credential of the user) or a revoked token (that token). */
  principalInvalidated(userId: string, tokenId: string | undefined, everyCredential: boolean): void {
    const hit = (p: Principal) => p.id === userId && (tokenId ? p.tokenId === tokenId : everyCredential || p.via !== 'api-token');
    for (const sub of [...(this.byPrincipal.get(userId) ?? [])]) if (hit(sub.spec.principal)) this.end(sub, 'revoked');
    // A socket opened with that credential closes too: it could otherwise subscribe again.
    for (const socket of [...this.sockets]) {
      if (hit(socket.principal)) { this.sockets.delete(socket); socket.revoke(); }
    }
  }

  /** A member's role changed or went: streams of that user in that base are checked again. */
  async membershipChanged(baseId: string, userId: string): Promise<void> {
    this.options.baseAccess.invalidate(baseId, userId);
    const subs = [...(this.byPrincipal.get(userId) ?? [])].filter((s) => s.spec.baseId === baseId);
    if (!subs.length) return;
    let role: BaseRole | undefined;
    try {
      role = await this.options.baseAccess.roleOf(subs[0].spec.principal, baseId);
    } catch (err) {
      this.options.logger.warn({ err, baseId }, 'feed: role check failed; streams kept');
      return;
    }
    if (roleAllows(role, 'data.read')) return;
    for (const sub of subs) this.end(sub, 'revoked');
  }

  private add(sub: Subscription): void {
    const index = sub.spec.kind === 'table' ? this.byTable : this.byBase;
    for (const [map, key] of [[index, sub.spec.scopeId], [this.byPrincipal, principalKey(sub.spec.principal)]] as const) {
      let set = map.get(key);
      if (!set) map.set(key, set = new Set());
      set.add(sub);
    }
  }

  private remove(sub: Subscription): Promise<void> {
    const index = sub.spec.kind === 'table' ? this.byTable : this.byBase;
    for (const [map, key] of [[index, sub.spec.scopeId], [this.byPrincipal, principalKey(sub.spec.principal)]] as const) {
      const set = map.get(key);
      set?.delete(sub);
      if (set && set.size === 0) map.delete(key);
    }
    for (const hb of this.heartbeatSinks) if (hb.sub === sub) this.heartbeatSinks.delete(hb);
    return this.release(sub);
  }

  /** The stream stops counting against its principal's cap (cluster-wide). */
  private release(sub: Subscription): Promise<void> {
    const id = sub.leaseId;
    if (!id) return Promise.resolve();
    sub.leaseId = undefined;
    return releaseLease(this.options.db, id).catch((err: unknown) => this.options.logger.warn({ err }, 'feed: releasing a stream lease failed (it expires)'));
  }

  /** Renews this replica's leases; puts back any that expired meanwhile (their streams are open: they count). */
  private async renewLeases(): Promise<void> {
    const { db, leaseMs } = this.options;
    if (!leaseMs || this.stopped) return;
    try {
      const held: { id: string; principal: string; replica: string }[] = [];
      for (const [principal, set] of this.byPrincipal) for (const sub of set) if (sub.leaseId) held.push({ id: sub.leaseId, principal, replica: this.replica });
      const renewed = await renewLeases(db, held.map((h) => h.id), leaseMs);
      if (renewed < held.length) await restoreLeases(db, held, leaseMs);
    } catch (err) {
      this.options.logger.warn({ err }, 'feed: renewing the stream leases failed');
    }
  }

  /**
   * Dispatches the rows after `seen`: this process's own appends straight
   * from the inbox while they follow `seen` with no gap (nothing else can lie
   * between: appends are serial), else read from the log, page by page.
   */
  private async readNew(): Promise<void> {
    let ask = this.askLog;
    this.askLog = false;
    for (;;) {
      const local = this.takeInbox();
      for (const row of local) this.dispatchNext(row);
      if (!ask && Number(this.seen) >= this.known) return;
      const rows = await readFeed(this.options.db, this.seen, PAGE);
      for (const row of rows) this.dispatchNext(row);
      if (rows.length < PAGE) return;
      ask = true;
    }
  }

  private dispatchNext(row: FeedRow): void {
    if (row.n <= Number(this.seen)) return;
    this.seen = row.seq;
    this.dispatch(row);
  }

  /** The inbox's rows that continue `seen` without a gap; older ones are dropped, later ones wait (or are read). */
  private takeInbox(): FeedRow[] {
    if (this.inbox.length === 0) return [];
    this.inbox.sort((a, b) => a.n - b.n);
    let next = Number(this.seen) + 1;
    let i = 0;
    while (i < this.inbox.length && this.inbox[i].n < next) i += 1;
    const taken: FeedRow[] = [];
    for (; i < this.inbox.length && this.inbox[i].n === next; i += 1, next += 1) taken.push(this.inbox[i]);
    this.inbox = this.inbox.slice(i);
    // what waits beyond a gap is read from the log with the rows before it: not kept
    if (this.inbox.length && taken.length === 0) this.inbox = [];
    return taken;
  }

  private dispatch(row: FeedRow): void {
    if (row.type.startsWith('meta.column.') || row.type.startsWith('meta.table.')) {
      this.wheres.forget(row.table_id);
    }
    if (row.type === 'meta.base.deleted') {
      for (const sub of [...(this.byBase.get(row.base_id) ?? [])]) this.end(sub, 'deleted');
      for (const set of [...this.byTable.values()]) for (const sub of [...set]) if (sub.spec.baseId === row.base_id) this.end(sub, 'deleted');
      return;
    }
    const tableSubs = this.byTable.get(row.table_id);
    if (row.type === 'meta.table.deleted') {
      for (const sub of [...(tableSubs ?? [])]) this.end(sub, 'deleted');
    } else if (tableSubs && row.record) {
      // Table streams carry only their table's record events (the index is by table). No copy of the set: a
      // subscription ended meanwhile (overflow) leaves it, which a Set's iteration allows.
      for (const sub of tableSubs) sub.offerRecord(row);
    }
    const baseSubs = this.byBase.get(row.base_id);
    if (baseSubs) for (const sub of baseSubs) sub.offer(row);
  }

  private heartbeat(): void {
    void this.renewLeases();
    for (const hb of [...this.heartbeatSinks]) if (!hb.ping()) this.end(hb.sub, 'overflow');
  }

  private async prune(): Promise<void> {
    try {
      await pruneFeed(this.options.db, new Date(Date.now() - this.options.retentionMs));
      if (this.options.leaseMs) await pruneLeases(this.options.db);
    } catch (err) {
      this.options.logger.warn({ err }, 'feed: pruning the log failed');
    }
  }
}
