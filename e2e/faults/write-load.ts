/** One write the API acknowledged (2xx). */
export interface AckedWrite {
  phase: string;
  kind: 'insert' | 'bulk' | 'update';
  /** Insert/bulk: the rows' Names. Update: `<Id>:<Qty>`. */
  markers: string[];
  /** Update: the row and the Qty it set. */
  rowId?: number;
  qty?: number;
}

/** Where the load writes. */
export interface LoadTarget {
  gatewayUrl: string;
  token: string;
  baseId: string;
  tableId: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A write-heavy load through the gateway: `workers` loops, each cycling single
 * insert, single insert, 5-row bulk insert, update of one of its own rows (so
 * a row's Qty only grows: an acknowledged update is present when the row's Qty
 * is at least the Qty it set). Every 2xx goes into the ledger; failures (5xx,
 * refused connections, timeouts) are counted and retried after a pause, as a
 * client would, under a new marker.
 */
export class WriteLoad {
  readonly acked: AckedWrite[] = [];
  readonly failed = new Map<string, number>();
  private running: Promise<void>[] = [];
  private stopping = false;
  private seq = 0;
  private qty = 0;

  constructor(private readonly target: LoadTarget, private readonly workers: number) {}

  /** Starts the workers under `phase` (the markers' prefix). */
  start(phase: string): void {
    this.stopping = false;
    this.running = Array.from({ length: this.workers }, (_, w) => this.work(phase, w));
  }

  /** Stops the workers after their request in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running);
  }

  /** Acknowledged writes of a phase. */
  of(phase: string): AckedWrite[] {
    return this.acked.filter((w) => w.phase === phase);
  }

  private async work(phase: string, worker: number): Promise<void> {
    const own: number[] = [];
    const { baseId, tableId } = this.target;
    for (let step = 0; !this.stopping; step++) {
      const kind = (['insert', 'insert', 'bulk', 'update'] as const)[step % 4];
      let write: AckedWrite | undefined;
      if (kind === 'insert') {
        const name = `${phase}-${worker}-${this.seq++}`;
        const res = await this.send('POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { Name: name, Qty: 0 });
        if (res) {
          own.push(Number((res as { Id: number }).Id));
          write = { phase, kind, markers: [name] };
        }
      } else if (kind === 'bulk') {
        const names = Array.from({ length: 5 }, () => `${phase}-${worker}-${this.seq++}`);
        if (await this.send('POST', `/api/v1/db/data/bulk/noco/${baseId}/${tableId}`, names.map((Name) => ({ Name, Qty: 0 })))) {
          write = { phase, kind, markers: names };
        }
      } else if (own.length) {
        const rowId = own[step % own.length];
        const qty = ++this.qty;
        if (await this.send('PATCH', `/api/v1/db/data/noco/${baseId}/${tableId}/${rowId}`, { Qty: qty })) {
          write = { phase, kind, markers: [`${rowId}:${qty}`], rowId, qty };
        }
      }
      if (write) this.acked.push(write);
      else if (kind !== 'update' || own.length) {
        this.failed.set(phase, (this.failed.get(phase) ?? 0) + 1);
        await sleep(50);
      }
    }
  }

  /** The parsed 2xx body, or undefined for any failure. */
  private async send(method: string, path: string, body: unknown): Promise<unknown> {
    try {
      const res = await fetch(`${this.target.gatewayUrl}${path}`, {
        method, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000),
        headers: { 'content-type': 'application/json', 'xc-auth': this.target.token },
      });
      const text = await res.text();
      return res.status >= 200 && res.status < 300 ? (text ? JSON.parse(text) : {}) : undefined;
    } catch {
      return undefined;
    }
  }
}
