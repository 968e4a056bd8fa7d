import { startSecurityStack, rawRequest, type SecurityStack, type TestUser } from './security.helpers';

/** Issue 17 defects 2, 4, 7, 12 and issue 9 item 14: what the gateway lets through. */
const LIMIT = 64 * 1024;
let s: SecurityStack;
let owner: TestUser;
let baseId: string;

beforeAll(async () => {
  s = await startSecurityStack({
    SVC_GATEWAY_MAX_BODY_BYTES: String(LIMIT), SVC_AUTH_MAX_FAILURES_PER_IP: '3', SVC_AUTH_MAX_FAILURES_PER_EMAIL: '1000',
    SVC_CORS_ORIGINS: 'https://app.example.com', SVC_AUTH_CACHE_TTL_MS: '0',
  });
  owner = await s.signUp('gw');
  baseId = await s.createBase(owner, `Gateway${Date.now()}`);
  await s.createTable(owner, baseId, 'Items');
});
afterAll(async () => { await s?.stop(); });

function bulkChunks(totalBytes: number): Buffer[] {
  const row = Buffer.from('{"Name":"' + 'x'.repeat(1000) + '"},');
  const chunks: Buffer[] = [Buffer.from('[')];
  for (let size = 0; size < totalBytes; size += row.length) chunks.push(row);
  chunks.push(Buffer.from('{"Name":"last"}]'));
  return chunks;
}

describe('security: gateway', () => {
  it('defect 2: chunked request bodies over the limit are refused with 413 on the bytes read, nothing written', async () => {
    const res = await rawRequest(s.url, {
      method: 'POST', path: `/api/v1/db/data/bulk/noco/${baseId}/Items`,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'xc-auth': owner.token }, chunks: bulkChunks(4 * LIMIT),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const rows = await s.call('GET', `/api/v1/db/data/noco/${baseId}/Items/count`, { token: owner.token });
    expect(rows.body).toEqual({ count: 0 });
    const small = await rawRequest(s.url, {
      method: 'POST', path: `/api/v1/db/data/bulk/noco/${baseId}/Items`,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'xc-auth': owner.token }, chunks: bulkChunks(LIMIT / 2),
    });
    expect(small.status).toBe(200);
  });

  it('issue 9 item 14: a declared Content-Length over the limit is 413 ERR_PAYLOAD_TOO_LARGE (not 400)', async () => {
    const body = JSON.stringify([{ Name: 'x'.repeat(LIMIT) }]);
    const res = await s.call('POST', `/api/v1/db/data/bulk/noco/${baseId}/Items`, { token: owner.token, body: JSON.parse(body) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('defect 4: X-Forwarded-For from an untrusted client does not reset the per-address sign-in limit', async () => {
    let last = 0;
    for (let i = 0; i < 6; i += 1) {
      const res = await s.call('POST', '/api/v1/auth/user/signin', {
        body: { email: `nobody${i}@example.com`, password: 'wrong-password' }, headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      last = res.status;
    }
    expect(last).toBe(429);
  });

  it('defect 7: CORS allows credentials only for origins listed in SVC_CORS_ORIGINS', async () => {
    const preflight = (origin: string) => s.call('OPTIONS', '/api/v1/db/meta/projects/', {
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'xc-auth' },
    });
    const evil = await preflight('https://evil.example.net');
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    expect(evil.headers.get('access-control-allow-origin')).not.toBe('https://evil.example.net');
    const simple = await s.call('GET', '/api/v1/health', { headers: { origin: 'https://evil.example.net' } });
    expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
    const listed = await preflight('https://app.example.com');
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('defect 12: the gateway refuses dot segments (raw or encoded) with 400 and public /internal paths with 404', async () => {
    const headers = { 'xc-auth': owner.token };
    for (const path of [
      `/api/v1/db/data/noco/${baseId}/../../../../../internal/bases/${baseId}`,
      `/api/v1/db/data/noco/${baseId}/%2e%2e/%2E%2E/%2e%2e/%2e%2e/%2e%2e/internal/bases/${baseId}`,
      `/api/v1/db/meta/projects/./${baseId}`,
      `/api/v1/db/meta/projects/.%2e/.%2E/internal/tables/x`,
    ]) {
      const res = await rawRequest(s.url, { method: 'GET', path, headers });
      expect([path, res.status]).toEqual([path, 400]);
    }
    for (const path of ['/internal/bases/x', '/%69nternal/bases/x', '//internal/tables/y']) {
      const res = await rawRequest(s.url, { method: 'GET', path, headers });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('an absolute-form request target (GET http://host/...) is 400, never routed or proxied to that host', async () => {
    const headers = { 'xc-auth': owner.token };
    for (const path of [`http://example.com/api/v1/db/meta/projects/${baseId}`, 'http://127.0.0.1:1/internal/bases/x', 'https://example.com/api/v1/auth/user/me']) {
      const res = await rawRequest(s.url, { method: 'GET', path, headers });
      expect([path, res.status, JSON.parse(res.text).error]).toEqual([path, 400, 'ERR_INVALID_PATH']);
    }
  });
});
