import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { backendUrl, describeWithBackend, uniqueEmail } from '@tabula/testing';
import { startAuthStack, type AuthStack } from './auth-e2e.helpers';

/**
 * Two deployments on one Redis, told apart only by EVENT_TOPIC_PREFIX (same
 * SVC_AUTH_RATE_KEY_PREFIX, same client address): one exhausting its sign-up
 * limit leaves the other's counters untouched, and each one's keys live under
 * its own prefix (`<prefix>.auth:rl:…`), like its streams.
 */
describeWithBackend('redis', 'auth rate limits of two deployments on one Redis (EVENT_TOPIC_PREFIX)', () => {
  const run = randomBytes(4).toString('hex');
  const shared = `test:${run}:`;
  const prefixes = [`rl${run}a`, `rl${run}b`];
  const stacks: AuthStack[] = [];
  const admin = createClient({ url: backendUrl('redis') });
  const keysUnder = async (pattern: string) => {
    const found: string[] = [];
    for await (const keys of admin.scanIterator({ MATCH: pattern, COUNT: 100 })) found.push(...keys);
    return found;
  };

  beforeAll(async () => {
    await admin.connect();
    for (const prefix of prefixes) {
      stacks.push(await startAuthStack({ REDIS_URL: backendUrl('redis') as string, EVENT_TOPIC_PREFIX: prefix, SVC_AUTH_RATE_KEY_PREFIX: shared, SVC_AUTH_MAX_SIGNUPS_PER_IP: '2' }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const s of stacks) await s.stop();
    for (const prefix of prefixes) for (const key of await keysUnder(`${prefix}.*`)) await admin.del(key);
    for (const key of await keysUnder(`${shared}*`)) await admin.del(key);
    await admin.close();
  });

  it('counts each deployment apart: one at its limit, the other still signs up', async () => {
    const [a, b] = stacks;
    const signUp = (s: AuthStack) => s.call('POST', '/api/v1/auth/user/signup', { body: { email: uniqueEmail('rl'), password: 'a-long-password' } });
    expect((await signUp(a)).status).toBe(200);
    expect((await signUp(a)).status).toBe(200);
    const limited = await signUp(a);
    expect(limited.status).toBe(429);
    expect((await signUp(b)).status).toBe(200);
    expect((await signUp(b)).status).toBe(200);
    expect((await signUp(b)).status).toBe(429);

    const ofA = await keysUnder(`${prefixes[0]}.*`);
    const ofB = await keysUnder(`${prefixes[1]}.*`);
    console.log(`rate-limit keys: ${[...ofA, ...ofB].join(', ')}`);
    expect(ofA).toContain(`${prefixes[0]}.${shared}signup:ip:127.0.0.1`);
    expect(ofB).toContain(`${prefixes[1]}.${shared}signup:ip:127.0.0.1`);
    expect(await admin.get(`${prefixes[0]}.${shared}signup:ip:127.0.0.1`)).toBe('2');
    expect(await keysUnder(`${shared}*`)).toEqual([]);
  }, 60_000);
});
