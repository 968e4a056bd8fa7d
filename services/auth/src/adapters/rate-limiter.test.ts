import { MemoryRateLimiter, type RateLimiter } from './rate-limiter';

async function exercise(limiter: RateLimiter, key: string): Promise<void> {
  expect(await limiter.blockedFor(key, 3)).toBe(0);
  for (let i = 0; i < 3; i += 1) await limiter.hit(key, 60);
  const wait = await limiter.blockedFor(key, 3);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  expect(await limiter.blockedFor(key, 4)).toBe(0);
  expect(await limiter.blockedFor(`${key}:other`, 3)).toBe(0);
}

describe('MemoryRateLimiter', () => {
  it('blocks a key at its limit and names the seconds to wait', async () => {
    await exercise(new MemoryRateLimiter(), 'k');
  });

  it('forgets a key when its window ends', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    await limiter.hit('k', 10);
    await limiter.hit('k', 10);
    expect(await limiter.blockedFor('k', 2)).toBe(10);
    now += 10_000;
    expect(await limiter.blockedFor('k', 2)).toBe(0);
  });

  it('stays bounded under many distinct keys', async () => {
    const limiter = new MemoryRateLimiter(Date.now, 10);
    for (let i = 0; i < 25; i += 1) await limiter.hit(`k${i}`, 60);
    expect(await limiter.blockedFor('k24', 1)).toBeGreaterThan(0);
  });
});
