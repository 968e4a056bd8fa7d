import type { OutboxRelay } from '@tabula/events';
import type { Logger } from '@tabula/telemetry';

/**
 * Takes the outbox relay's flush off the request path: a committed write only
 * asks for a flush; the first ask starts a short timer (`delayMs`) and the
 * writes committed meanwhile share that one relay transaction. The relay's own
 * poll remains the safety net. Adds at most `delayMs` to event latency.
 */
export class OutboxFlusher {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly relay: OutboxRelay, private readonly logger: Logger, private readonly delayMs = 2) {}

  /** A write committed outbox rows: publish them soon. */
  request(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.relay.flush().catch((err: unknown) => this.logger.warn({ err }, 'outbox flush failed'));
    }, this.delayMs);
    this.timer.unref();
  }
}
