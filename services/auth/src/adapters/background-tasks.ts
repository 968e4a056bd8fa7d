import type { Logger } from '@tabula/telemetry';

/**
 * Work a request hands off instead of waiting for (the reset mail of
 * forgot-password, so a known and an unknown e-mail answer in the same time).
 * Tasks start after the current I/O turn; failures are logged; `drain` waits
 * for every task still running (shutdown).
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Runs `task` in the background. */
  run(name: string, task: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves when every running task has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
