import net from 'node:net';
import { startSecurityStack, type SecurityStack } from './security.helpers';

/** Issue 17 defects 5 and 14: sign-in throttling without lockout, user enumeration. */
let s: SecurityStack;
/** An SMTP server that accepts connections and never answers: a mail sent in the request would hold it forever. */
const smtpConnections: net.Socket[] = [];
const smtp = net.createServer((socket) => { smtpConnections.push(socket); });
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  s = await startSecurityStack({
    SVC_SMTP_URL: `smtp://127.0.0.1:${(smtp.address() as net.AddressInfo).port}`,
    SVC_TRUSTED_PROXIES: '127.0.0.1/32,::1/128', SVC_AUTH_MAX_FAILURES_PER_EMAIL: '3', SVC_AUTH_FREE_FAILURES: '3',
    SVC_AUTH_MAX_FORGOT_PER_EMAIL: '1000', SVC_AUTH_MAX_FORGOT_PER_IP: '1000', SVC_AUTH_MAX_SIGNUPS_PER_IP: '3',
  });
});
afterAll(async () => {
  for (const socket of smtpConnections) socket.destroy();
  await s?.stop();
  await new Promise((resolve) => smtp.close(resolve));
});

const signIn = (email: string, password: string, address: string) =>
  s.call('POST', '/api/v1/auth/user/signin', { body: { email, password }, headers: { 'x-forwarded-for': address } });

describe('security: auth', () => {
  it('defect 5: failed sign-ins from elsewhere never lock the owner out of a known address; the attacker backs off', async () => {
    const victim = await s.signUp('lockout');
    expect((await signIn(victim.email, 'Password123!', '198.51.100.1')).status).toBe(200);
    const attacker: number[] = [];
    for (let i = 0; i < 12; i += 1) attacker.push((await signIn(victim.email, 'wrong-password', '203.0.113.9')).status);
    expect(attacker.slice(0, 3)).toEqual([400, 400, 400]);
    expect(attacker).toContain(429);
    const owner = await signIn(victim.email, 'Password123!', '198.51.100.1');
    expect(owner.status).toBe(200);
    const attackerRight = await signIn(victim.email, 'Password123!', '203.0.113.9');
    expect(attackerRight.status).toBe(429);
    expect(Number(attackerRight.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('defect 14: forgot-password answers a known e-mail without waiting for its mail (queued), like an unknown one', async () => {
    // The SMTP server never answers: had the request waited for the mail (or for the known account's lookup
    // feeding it), the known e-mail's answer would never come. Then the mail is attempted in the background.
    const known = await s.signUp('timing');
    const forgot = (email: string) => s.call('POST', '/api/v1/auth/password/forgot', { body: { email } });
    const before = smtpConnections.length;
    expect((await forgot('ghost@example.com')).status).toBe(200);
    expect((await forgot(known.email)).status).toBe(200);
    for (let i = 0; i < 200 && smtpConnections.length === before; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(smtpConnections.length).toBe(before + 1);
  });

  it('defect 14: sign-ups are rate limited per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await s.call('POST', '/api/v1/auth/user/signup', {
        body: { email: `signup${i}.${Date.now()}@example.com`, password: 'Password123!' }, headers: { 'x-forwarded-for': '192.0.2.77' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const other = await s.call('POST', '/api/v1/auth/user/signup', {
      body: { email: `signup-other.${Date.now()}@example.com`, password: 'Password123!' }, headers: { 'x-forwarded-for': '192.0.2.78' },
    });
    expect(other.status).toBe(200);
  });
});
