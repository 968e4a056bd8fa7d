/** A fixed-window counter per key. */
export interface RateLimiter {
  /** Seconds until `key` is under `limit` again, or 0 when it is under the limit now. */
  blockedFor(key: string, limit: number): Promise<number>;
  /** Counts one event for `key` in a window of `windowSeconds` (the window starts at the first event); answers the count. */
  hit(key: string, windowSeconds: number): Promise<number>;
  /** Forgets `key`. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Standalone: counters in this process's memory. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now, private readonly maxKeys = 100_000) {}

  async blockedFor(key: string, limit: number): Promise<number> {
    const w = this.live(key);
    return w && w.count >= limit ? Math.max(1, Math.ceil((w.resetAt - this.now()) / 1000)) : 0;
  }

  async hit(key: string, windowSeconds: number): Promise<number> {
    const w = this.live(key);
    if (w) {
      w.count += 1;
      return w.count;
    }
    if (this.windows.size >= this.maxKeys) this.prune();
    this.windows.set(key, { count: 1, resetAt: this.now() + windowSeconds * 1000 });
    return 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Keeps memory bounded under a flood of distinct keys: expired first, then everything. */
  private prune(): void {
    const now = this.now();
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }
}
