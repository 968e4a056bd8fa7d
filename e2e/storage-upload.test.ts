import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { rawGet, sha256, signup, upload } from './storage-e2e.helpers';

let stack: TestStack;
let token: string;
const LIMIT = 1024 * 1024;
const blobDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-storage-upload-'));
const SIGNING_KEY = 'storage-upload-test-signing-key-0123456789';

/** Every file under the blob root (part files included). */
function filesOnDisk(): string[] {
  return readdirSync(blobDir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  stack = await startTestStack(allServices, { SVC_ATTACHMENT_FIELD_SIZE: String(LIMIT), SVC_STORAGE_LOCAL_DIR: blobDir, SVC_ATTACHMENT_SIGNING_KEY: SIGNING_KEY });
  token = await signup(stack.url, 'storage-upload@example.com');
});
afterAll(async () => { await stack.stop(); rmSync(blobDir, { recursive: true, force: true }); });

describe('upload and serve', () => {
  it('answers Attachment objects and serves identical bytes from /download and /dltemp', async () => {
    const bytes = randomBytes(300_000);
    const res = await upload(stack.url, token, [{ name: 'photo.png', type: 'image/png', data: bytes }]);
    expect(res.status).toBe(200);
    const [a] = res.body;
    expect(a).toMatchObject({ title: 'photo.png', mimetype: 'image/png', size: bytes.length, icon: 'mdi-file-image' });
    expect(a.path).toMatch(/^download\/uploads\/photo_[0-9a-f]{16}\.png$/);
    expect(a.signedPath).toMatch(/^dltemp\//);
    const dl = await rawGet(stack.url, `/${a.path}`, { 'xc-auth': token });
    expect(dl.status).toBe(200);
    expect(sha256(dl.body)).toBe(sha256(bytes));
    const signed = await rawGet(stack.url, `/${a.signedPath}`);
    expect(signed.status).toBe(200);
    expect(sha256(signed.body)).toBe(sha256(bytes));
    expect(signed.headers['x-content-type-options']).toBe('nosniff');
    expect(signed.headers['content-security-policy']).toContain("default-src 'none'");
    expect(signed.headers['content-disposition']).toMatch(/^inline; filename="photo.png"/);
  });
});

describe('bad input: uploads', () => {
  it('missing file part → 400; a part under another name does not count', async () => {
    expect((await upload(stack.url, token, [])).status).toBe(400);
    const other = await upload(stack.url, token, [{ field: 'document', data: Buffer.from('x') }]);
    expect(other.status).toBe(400);
    expect(other.body.msg).toMatch(/No file part/);
  });

  it('11 files → 400 and none of the first 10 is kept', async () => {
    const before = filesOnDisk().length;
    const parts = Array.from({ length: 11 }, (_, i) => ({ field: 'files[]', name: `f${i}.txt`, data: Buffer.from(`file ${i}`) }));
    const res = await upload(stack.url, token, parts);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_TOO_MANY_FILES');
    expect(filesOnDisk().length).toBe(before);
  });

  it('10 files are fine (files[] parts), answered in order', async () => {
    const parts = Array.from({ length: 10 }, (_, i) => ({ field: 'files[]', name: `n${i}.txt`, type: 'text/plain', data: Buffer.from(`n${i}`) }));
    const res = await upload(stack.url, token, parts);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { title: string }) => a.title)).toEqual(parts.map((p) => p.name));
  });

  it('a file one byte over the limit → 413, nothing stored, no part file left', async () => {
    const before = filesOnDisk();
    const res = await upload(stack.url, token, [{ name: 'big.bin', data: randomBytes(LIMIT + 1) }]);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect(filesOnDisk()).toEqual(before);
    const exact = await upload(stack.url, token, [{ name: 'exact.bin', data: randomBytes(LIMIT) }]);
    expect(exact.status).toBe(200);
    expect(exact.body[0].size).toBe(LIMIT);
  });

  it('a client sending limit + 8 MiB in paced chunks gets its 413 before it has sent it all; no part file grows past limit + one chunk', async () => {
    const CHUNK = 64 * 1024;
    const total = LIMIT + 8 * 1024 * 1024;
    const boundary = 'slowBoundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { hostname, port } = new URL(stack.url);
    const before = filesOnDisk();
    let largestPart = 0;
    const outcome = await new Promise<{ status: number; sentAtAnswer: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request({
        hostname, port, path: '/api/v1/db/storage/upload', method: 'POST',
        headers: { 'xc-auth': token, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + total + tail.length },
      }, (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentAtAnswer: sent });
        req.destroy();
      });
      req.on('error', (err) => { if (!answered) reject(err); });
      req.write(head);
      // one chunk after the other, each once the previous was flushed; the bytes on disk are looked at between chunks
      const next = (): void => {
        if (answered) return;
        for (const f of filesOnDisk()) if (f.endsWith('.part')) largestPart = Math.max(largestPart, statSync(f, { throwIfNoEntry: false })?.size ?? 0);
        if (sent >= total) { req.end(tail); return; }
        const n = Math.min(CHUNK, total - sent);
        sent += n;
        req.write(Buffer.alloc(n, 1), () => setTimeout(next, 2));
      };
      next();
    });
    expect(outcome.status).toBe(413);
    expect(outcome.sentAtAnswer).toBeLessThan(total);
    expect(largestPart).toBeLessThan(LIMIT + CHUNK);
    expect(filesOnDisk()).toEqual(before);
  });

  it('an oversized second file discards the first', async () => {
    const before = filesOnDisk();
    const res = await upload(stack.url, token, [{ name: 'ok.txt', data: Buffer.from('ok') }, { name: 'big.bin', data: randomBytes(LIMIT + 10) }]);
    expect(res.status).toBe(413);
    expect(filesOnDisk()).toEqual(before);
  });

  it('an empty file is allowed (0 bytes)', async () => {
    const res = await upload(stack.url, token, [{ name: 'empty.txt', type: 'text/plain', data: Buffer.alloc(0) }]);
    expect(res.status).toBe(200);
    expect(res.body[0].size).toBe(0);
    expect((await rawGet(stack.url, `/${res.body[0].signedPath}`)).body.length).toBe(0);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['x'.repeat(1000) + '.txt', 'x'.repeat(255)],
    ['résumé 履歴書 😀.pdf', 'résumé 履歴書 😀.pdf'],
    ['.htaccess', '.htaccess'],
  ])('filename %j: kept as title (sanitized), safe on disk', async (name, title) => {
    const res = await upload(stack.url, token, [{ name, data: Buffer.from('content') }]);
    expect(res.status).toBe(200);
    const [a] = res.body;
    expect(a.title).toBe(name.includes('/') || name.includes('\\') ? a.title : title.slice(0, 255));
    expect(a.title).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(a.path).toMatch(/^download\/uploads\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
    for (const f of filesOnDisk()) expect(f.startsWith(blobDir + path.sep)).toBe(true);
    expect((await rawGet(stack.url, `/${a.signedPath}`)).body.toString()).toBe('content');
  });

  it.each([
    ["a%00b.txt", 'ab.txt'],
    ["ctl%01%1F%7F%E2%80%AEtxt.exe", 'ctltxt.exe'],
    ["..%2F..%2Fetc%2Fpasswd", 'passwd'],
  ])('RFC 5987 filename* %j: control characters dropped from the title, key safe', async (encoded, title) => {
    const boundary = 'XyZboundary';
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}\r\n`
      + `Content-Type: text/plain\r\n\r\nbody\r\n--${boundary}--\r\n`);
    const res = await fetch(`${stack.url}/api/v1/db/storage/upload`, {
      method: 'POST', headers: { 'xc-auth': token, 'content-type': `multipart/form-data; boundary=${boundary}` }, body,
    });
    const [a] = (await res.json()) as { title: string; path: string }[];
    expect(res.status).toBe(200);
    expect(a.title).toBe(title);
    expect(a.path).toMatch(/^download\/uploads\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
  });

  it('a raw NUL or control character in a part header is a malformed body → 400, nothing stored', async () => {
    const before = filesOnDisk();
    for (const name of ['a\u0000b.txt', 'c\u0001d.txt']) {
      const res = await upload(stack.url, token, [{ name, data: Buffer.from('x') }]);
      expect(res.status).toBe(400);
    }
    expect(filesOnDisk()).toEqual(before);
  });

  it.each(['../x', '..', 'a/../../b', '/etc', 'a\\b', '%2e%2e', 'a%2fb', 'a\u0000b', 'C:\\temp', './a'])('upload path %j → 400', async (p) => {
    const res = await upload(stack.url, token, [{ data: Buffer.from('x') }], `?path=${encodeURIComponent(p)}`);
    expect(res.status).toBe(400);
  });

  it('an organizing path is used as the key prefix', async () => {
    const res = await upload(stack.url, token, [{ name: 'a.txt', data: Buffer.from('x') }], '?path=noco/p1/m1/c1');
    expect(res.body[0].path).toMatch(/^download\/noco\/p1\/m1\/c1\/a_[0-9a-f]{16}\.txt$/);
  });

  it('without credentials → 401', async () => {
    expect((await upload(stack.url, undefined, [{ data: Buffer.from('x') }])).status).toBe(401);
  });
});

describe('aborted uploads', () => {
  it('a client that disconnects mid-file leaves no object, no part file, and the service keeps serving', async () => {
    const before = filesOnDisk();
    const { hostname, port } = new URL(stack.url);
    const boundary = 'AbortBoundary';
    await new Promise<void>((resolve) => {
      const req = http.request({
        hostname, port, method: 'POST', path: '/api/v1/db/storage/upload',
        headers: { 'xc-auth': token, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(LIMIT) },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`);
      req.write(randomBytes(200_000));
      setTimeout(() => req.destroy(), 300);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(filesOnDisk()).toEqual(before);
    expect((await upload(stack.url, token, [{ name: 'after.txt', data: Buffer.from('still fine') }])).status).toBe(200);
  });
});
