import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A row as a v3 records payload carries it. */
interface PayloadRow { Id?: number; Name?: string; Qty?: number }

/**
 * The webhook receiver of the fault suite: answers 200 at once and counts, per
 * write marker, how many calls carried it. A write's marker is the inserted
 * row's Name, or `<Id>:<Qty>` for an update (each update sets a fresh Qty).
 * Also keeps every call's `webhook-id` (the delivery id, stable across retries;
 * hooks.deliveries maps it to the event id).
 */
export class DeliverySink {
  /** Calls received per marker. */
  readonly seen = new Map<string, number>();
  /** Calls received per webhook-id. */
  readonly perDelivery = new Map<string, number>();
  calls = 0;
  url = '';
  private server?: Server;
  private waiters: Array<{ marker: string; resolve: () => void }> = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.record(String(req.headers['webhook-id'] ?? ''), Buffer.concat(chunks).toString());
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves when a call carrying `marker` arrives (or has arrived). */
  arrival(marker: string): Promise<void> {
    if (this.seen.has(marker)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ marker, resolve }));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private record(webhookId: string, body: string): void {
    this.calls++;
    this.perDelivery.set(webhookId, (this.perDelivery.get(webhookId) ?? 0) + 1);
    let payload: { type?: string; data?: { rows?: PayloadRow[] } };
    try { payload = JSON.parse(body); } catch { return; }
    const update = String(payload.type ?? '').endsWith('.update');
    for (const row of payload.data?.rows ?? []) {
      const marker = update ? `${row.Id}:${row.Qty}` : String(row.Name);
      this.seen.set(marker, (this.seen.get(marker) ?? 0) + 1);
    }
    this.waiters = this.waiters.filter((w) => (this.seen.has(w.marker) ? (w.resolve(), false) : true));
  }
}
