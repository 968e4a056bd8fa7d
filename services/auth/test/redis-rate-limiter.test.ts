import { describeWithBackend } from '@tabula/testing';
import { RedisRateLimiter } from '../src/adapters/redis-rate-limiter';

describeWithBackend('redis', 'RedisRateLimiter', () => {
  it('blocks a key at its limit, shared across clients, and names the seconds to wait', async () => {
    const prefix = `test:${Date.now()}:${Math.random()}:`;
    const a = await RedisRateLimiter.connect(process.env.REDIS_URL as string, prefix);
    const b = await RedisRateLimiter.connect(process.env.REDIS_URL as string, prefix);
    try {
      expect(await a.blockedFor('k', 3)).toBe(0);
      await a.hit('k', 60);
      await b.hit('k', 60);
      await a.hit('k', 60);
      const wait = await b.blockedFor('k', 3);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(await b.blockedFor('k', 4)).toBe(0);
      expect(await b.blockedFor('other', 3)).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
