/**
 * Connections of a knex pool kept between back-to-back hot statements
 * (queryPrepared), for at most one turn of the event loop.
 *
 * Taking a connection from knex's pool (tarn) costs about sixteen promises
 * and a timer per statement (its pending operation, the acquire timeout,
 * validation, knex's wrapper), about 10 µs per read by id with
 * AsyncLocalStorage on, as much as the rest of the driver. A connection a hot
 * statement is done with goes to this lane instead of back to the pool; the
 * next hot statement takes it synchronously. A connection goes back to the
 * pool at once when the pool has callers waiting (knex's own queries and
 * transactions), and otherwise once it has stayed idle in the lane through a
 * whole turn of the event loop (checked in the check phase, `setImmediate`):
 * the pool's bound and its accounting stay as they are (a connection in the
 * lane is one the pool lent), and an idle service holds nothing. A
 * connection that failed meanwhile (knex marks it disposed, pg stops taking
 * queries) is handed back to the pool, which destroys it.
 */
export interface LaneConnection {
  __knex__disposed?: unknown;
  _ending?: boolean;
  _queryable?: boolean;
}

interface PoolClient<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<unknown>;
  /** knex's tarn pool (absent once destroyed). */
  pool?: { numPendingAcquires(): number } | null;
}

/** The lane of one knex client. */
export class ConnectionLane<C extends LaneConnection> {
  private idle: C[] = [];
  /** The turn (sweep count) in which each idle connection was given back, in `idle`'s order. */
  private givenIn: number[] = [];
  private turn = 0;
  private sweeping: NodeJS.Immediate | undefined;

  constructor(private readonly client: PoolClient<C>) {}

  /** An idle connection of the lane, or undefined (then ask the pool: {@link acquire}). */
  take(): C | undefined {
    for (let connection = this.idle.pop(); connection; connection = this.idle.pop()) {
      this.givenIn.pop();
      if (usable(connection)) return connection;
      this.release(connection);
    }
    return undefined;
  }

  /** A connection from the pool. */
  acquire(): Promise<C> {
    return this.client.acquireConnection();
  }

  /** A connection the caller is done with: kept for the next hot statement unless the pool has callers waiting. */
  give(connection: C): void {
    if (!usable(connection) || !this.client.pool || this.client.pool.numPendingAcquires() > 0) {
      this.release(connection);
      return;
    }
    this.idle.push(connection);
    this.givenIn.push(this.turn);
    this.sweeping ??= setImmediate(() => this.sweep());
  }

  /** Connections idle in the lane now (tests). */
  get size(): number {
    return this.idle.length;
  }

  /** Back to the pool; once the pool is gone (knex destroyed) the connection is closed instead. */
  private release(connection: C): void {
    if (!this.client.pool) {
      void (connection as { end?: () => Promise<void> }).end?.().catch(() => undefined);
      return;
    }
    void this.client.releaseConnection(connection);
  }

  /** Gives back the connections idle since before the last sweep; the newer ones wait for the next. */
  private sweep(): void {
    this.sweeping = undefined;
    const previous = this.turn;
    this.turn += 1;
    let kept = 0;
    for (let i = 0; i < this.idle.length; i++) {
      if (this.givenIn[i] < previous) {
        this.release(this.idle[i]);
      } else {
        this.idle[kept] = this.idle[i];
        this.givenIn[kept] = this.givenIn[i];
        kept += 1;
      }
    }
    this.idle.length = kept;
    this.givenIn.length = kept;
    if (kept > 0) this.sweeping = setImmediate(() => this.sweep());
  }
}

function usable(connection: LaneConnection): boolean {
  return !connection.__knex__disposed && !connection._ending && connection._queryable !== false;
}

const lanes = new WeakMap<object, ConnectionLane<LaneConnection>>();

/** The lane of a knex client (one per client, made on first use). */
export function laneOf<C extends LaneConnection>(client: PoolClient<C>): ConnectionLane<C> {
  let lane = lanes.get(client) as ConnectionLane<C> | undefined;
  if (!lane) {
    lane = new ConnectionLane(client);
    lanes.set(client, lane as unknown as ConnectionLane<LaneConnection>);
  }
  return lane;
}
