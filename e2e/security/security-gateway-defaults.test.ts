import { startSecurityStack, type SecurityStack } from './security.helpers';

/** Issue 17 defects 4 and 7 with default CORS settings: a trusted proxy names the client; no origin gets credentials. */
let s: SecurityStack;
beforeAll(async () => {
  s = await startSecurityStack({ SVC_TRUSTED_PROXIES: '127.0.0.1/32,::1/128', SVC_AUTH_MAX_FAILURES_PER_IP: '3', SVC_AUTH_MAX_FAILURES_PER_EMAIL: '1000' });
});
afterAll(async () => { await s?.stop(); });

describe('security: gateway defaults and trusted proxies', () => {
  it('defect 7: by default (no SVC_CORS_ORIGINS) no origin gets credentialed cross-origin access', async () => {
    const preflight = await s.call('OPTIONS', '/api/v1/auth/token/refresh', {
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const simple = await s.call('POST', '/api/v1/auth/token/refresh', { headers: { origin: 'https://evil.example.net' } });
    expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
    expect(simple.headers.get('access-control-allow-origin')).not.toBe('https://evil.example.net');
  });

  it('defect 4: X-Forwarded-For is believed from SVC_TRUSTED_PROXIES only (rightmost untrusted hop is the client)', async () => {
    const fail = (xff: string, i: number) => s.call('POST', '/api/v1/auth/user/signin', {
      body: { email: `p${i}@example.com`, password: 'wrong-password' }, headers: { 'x-forwarded-for': xff },
    });
    for (let i = 0; i < 3; i += 1) expect((await fail('198.51.100.7', i)).status).toBe(400);
    expect((await fail('198.51.100.7', 3)).status).toBe(429);
    // Another client behind the same proxy has its own counter...
    expect((await fail('198.51.100.8', 4)).status).toBe(400);
    // ...and a client prepending a fake address is still counted by the address the proxy saw.
    expect((await fail('10.9.9.9, 198.51.100.7', 5)).status).toBe(429);
  });
});
