import { randomBytes } from 'node:crypto';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { LinkSigner } from '../services/storage/src/domain/link-signer';
import { rawGet, sha256, signup, upload } from './storage-e2e.helpers';
import { createHmac } from 'node:crypto';

let stack: TestStack;
let token: string;
let other: string;
const MATERIAL = 'storage-serve-test-signing-key-0123456789';
// the service derives its HMAC key from the configured material
const key = createHmac('sha256', MATERIAL).update('tabula.storage.dltemp').digest('base64url');

beforeAll(async () => {
  stack = await startTestStack(allServices, { SVC_ATTACHMENT_SIGNING_KEY: MATERIAL });
  token = await signup(stack.url, 'storage-serve@example.com');
  other = await signup(stack.url, 'storage-serve-other@example.com');
});
afterAll(async () => { await stack.stop(); });

async function one(name: string, type: string, data: Buffer, query = ''): Promise<{ path: string; signedPath: string }> {
  const res = await upload(stack.url, token, [{ name, type, data }], query);
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('serving', () => {
  it('HTML and SVG are never previewed; PDF and PNG are; every answer has nosniff and a CSP; query cannot set headers', async () => {
    const cases: [string, string, RegExp][] = [
      ['page.html', 'text/html', /^attachment;/], ['logo.svg', 'image/svg+xml', /^attachment;/], ['doc.pdf', 'application/pdf', /^inline;/],
      ['pic.png', 'image/png', /^inline;/], ['data.json', 'application/json', /^attachment;/],
    ];
    for (const [name, type, disposition] of cases) {
      const a = await one(name, type, Buffer.from('<script>alert(1)</script>'));
      const res = await rawGet(stack.url, `/${a.signedPath}?response-content-type=text/html&response-content-disposition=inline&content-type=text/html`);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(disposition);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
      expect(res.headers['content-type']).toContain(type);
    }
  });

  it('Range requests answer 206 with exactly those bytes; an unsatisfiable range 416', async () => {
    const bytes = randomBytes(200_000);
    const a = await one('r.bin', 'application/octet-stream', bytes);
    const part = await rawGet(stack.url, `/${a.signedPath}`, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await rawGet(stack.url, `/${a.signedPath}`, { range: 'bytes=-100' });
    expect(tail.body.equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const open = await rawGet(stack.url, `/${a.signedPath}`, { range: 'bytes=199000-' });
    expect(sha256(open.body)).toBe(sha256(bytes.subarray(199000)));
    const bad = await rawGet(stack.url, `/${a.signedPath}`, { range: 'bytes=300000-400000' });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('private files: /download needs the uploader (or a base reader); public scope is served to anyone', async () => {
    const priv = await one('p.txt', 'text/plain', Buffer.from('private'));
    expect((await rawGet(stack.url, `/${priv.path}`)).status).toBe(401);
    expect((await rawGet(stack.url, `/${priv.path}`, { 'xc-auth': other })).status).toBe(404);
    expect((await rawGet(stack.url, `/${priv.path}`, { 'xc-auth': token })).body.toString()).toBe('private');
    const pub = await one('pub.txt', 'text/plain', Buffer.from('public'), '?scope=public');
    const res = await rawGet(stack.url, `/${pub.path}`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('public');
  });

  it('a forged, tampered or expired dltemp signature is refused', async () => {
    const a = await one('s.txt', 'text/plain', Buffer.from('secret'));
    const token0 = a.signedPath.slice('dltemp/'.length);
    const [expiry, k, sig] = token0.split('.');
    const forged = new LinkSigner('not-the-key-0123456789abcdef', 7200).sign(Buffer.from(k, 'base64url').toString());
    expect((await rawGet(stack.url, `/dltemp/${forged}`)).status).toBe(403);
    const otherKey = Buffer.from('uploads/other.txt').toString('base64url');
    expect((await rawGet(stack.url, `/dltemp/${expiry}.${otherKey}.${sig}`)).status).toBe(403);
    expect((await rawGet(stack.url, `/dltemp/${Number(expiry) + 1000}.${k}.${sig}`)).status).toBe(403);
    expect((await rawGet(stack.url, `/dltemp/${expiry}.${k}.${sig.slice(0, -2)}AA`)).status).toBe(403);
    expect((await rawGet(stack.url, '/dltemp/garbage')).status).toBe(403);
    const expired = new LinkSigner(key, 60, () => Date.now() - 3_600_000).sign(Buffer.from(k, 'base64url').toString());
    const res = await rawGet(stack.url, `/dltemp/${expired}`);
    expect(res.status).toBe(410);
    expect(JSON.parse(res.body.toString()).error).toBe('ERR_LINK_EXPIRED');
    const valid = new LinkSigner(key, 60).sign(Buffer.from(k, 'base64url').toString());
    expect((await rawGet(stack.url, `/dltemp/${valid}`)).body.toString()).toBe('secret');
  });

  it('traversal catalogue: no encoding of a path escapes the storage root', async () => {
    const a = await one('t.txt', 'text/plain', Buffer.from('t'), '?scope=public');
    const tail = a.path.slice('download/'.length);
    const attempts = [
      '/download/../../../../etc/passwd', '/download/%2e%2e/%2e%2e/etc/passwd', '/download/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/download/..%2f..%2fetc%2fpasswd', '/download/..%5c..%5cetc%5cpasswd', '/download/..\\..\\etc\\passwd',
      '/download//etc/passwd', '/download/%2Fetc%2Fpasswd', '/download/uploads/%00../../etc/passwd', '/download/uploads/t.txt%00.png',
      '/download/%252e%252e/%252e%252e/etc/passwd', '/download/%c0%ae%c0%ae/etc/passwd', '/download/uploads/./../uploads/x',
      `/download/${tail.replace('/', '%2f')}`, `/download/uploads/..%2f${tail}`, '/download/C:%5cwindows%5cwin.ini',
      '/dltemp/../download/uploads/x', '/dltemp/%2e%2e%2fdownload',
    ];
    for (const p of attempts) {
      const res = await rawGet(stack.url, p);
      expect([400, 403, 404]).toContain(res.status);
      expect(res.body.toString()).not.toContain('root:');
    }
    expect((await rawGet(stack.url, `/${a.path}`)).status).toBe(200);
  });
});
