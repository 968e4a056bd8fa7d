import type { Knex } from 'knex';
import { completeAttempts, type AttemptCompletion } from '../repositories/delivery.repository';

interface Pending {
  completion: AttemptCompletion;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of finished attempts: while one statement is writing, the
 * attempts that finish meanwhile queue up and go in the next one (log rows and
 * delivery states together, see completeAttempts), so the cost per delivery
 * falls with load and no attempt waits for a timer. If a grouped statement
 * fails, its attempts are retried one by one so one bad row fails only itself.
 */
export class Completions {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly db: Knex, private readonly maxBatch = 200) {}

  /** Records one finished attempt; resolves once it is committed. */
  record(completion: AttemptCompletion): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ completion, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await completeAttempts(this.db, batch.map((p) => p.completion));
          batch.forEach((p) => p.resolve());
        } catch (err) {
          if (batch.length === 1) {
            batch[0].reject(err);
            continue;
          }
          await Promise.all(batch.map((p) => completeAttempts(this.db, [p.completion]).then(p.resolve, p.reject)));
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
