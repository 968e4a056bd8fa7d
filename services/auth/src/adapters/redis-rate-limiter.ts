import { createClient, type RedisClientType } from 'redis';
import type { RateLimiter } from './rate-limiter';

/**
 * Where a deployment's counters live in Redis: under its EVENT_TOPIC_PREFIX,
 * like its streams and consumer groups (`<prefix>.<name>`), so two deployments
 * on one Redis never count each other's attempts.
 */
export function rateKeyPrefix(deploymentPrefix: string, servicePrefix: string): string {
  return `${deploymentPrefix}.${servicePrefix}`;
}

/** Cluster: counters shared by every replica in Redis (INCR + EXPIRE NX, TTL for Retry-After). */
export class RedisRateLimiter implements RateLimiter {
  private constructor(private readonly client: RedisClientType, private readonly prefix: string) {}

  /** Connects to Redis; keys live under `prefix`. */
  static async connect(url: string, prefix: string): Promise<RedisRateLimiter> {
    const client = createClient({ url }) as unknown as RedisClientType;
    client.on('error', () => undefined);
    await client.connect();
    return new RedisRateLimiter(client, prefix);
  }

  async blockedFor(key: string, limit: number): Promise<number> {
    const k = this.prefix + key;
    const [count, ttl] = await Promise.all([this.client.get(k), this.client.ttl(k)]);
    if (Number(count ?? 0) < limit) return 0;
    return Math.max(1, ttl);
  }

  async hit(key: string, windowSeconds: number): Promise<number> {
    const k = this.prefix + key;
    const [count] = await this.client.multi().incr(k).expire(k, windowSeconds, 'NX').exec();
    return Number(count);
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
