import os from 'node:os';
import path from 'node:path';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Koa from 'koa';
import request from 'supertest';
import { WebAssets, webDir } from '../adapters/web-assets';
import { webAppMiddleware } from './web.routes';

/** The gateway's web app serving (issue 32): files, the page for client routes, and nothing else. */
describe('webAppMiddleware', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-web-assets-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(os.tmpdir(), 'tabula-web-outside.txt'), 'secret');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function app(assets: WebAssets, served: (m: string, p: string) => boolean = () => false) {
    const koa = new Koa();
    koa.use(webAppMiddleware(assets, served));
    koa.use((ctx) => { ctx.status = 404; ctx.body = { error: 'ERR_NOT_FOUND' }; });
    return koa.callback();
  }

  it('answers index.html at / and at any client route, with the security headers', async () => {
    for (const url of ['/', '/bases/b1/tables/t1', '/reset-password']) {
      const res = await request(app(new WebAssets(dir))).get(url);
      expect([url, res.status, res.type]).toEqual([url, 200, 'text/html']);
      expect(res.text).toContain('<title>app</title>');
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'; .*frame-ancestors 'none'/);
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable; a missing file is the 404 of the next handler, not the page', async () => {
    const js = await request(app(new WebAssets(dir))).get('/assets/index-abc.js');
    expect([js.status, js.type, js.headers['cache-control']]).toEqual([200, 'application/javascript', 'public, max-age=31536000, immutable']);
    expect((await request(app(new WebAssets(dir))).get('/assets/nope.js')).body).toEqual({ error: 'ERR_NOT_FOUND' });
  });

  it('leaves API paths, other methods, routes a service serves, and files outside the folder alone', async () => {
    const handler = app(new WebAssets(dir), (_m, p) => p.startsWith('/download/'));
    for (const url of ['/api', '/api/v1/nothing', '/API/v2/x', '/internal/x', '/download/some/key', '/healthz', '/%2e%2e/tabula-web-outside.txt']) {
      const res = await request(handler).get(url);
      expect([url, res.status, res.body]).toEqual([url, 404, { error: 'ERR_NOT_FOUND' }]);
    }
    expect((await request(handler).post('/').send({})).status).toBe(404);
  });

  it('without a built app, serves nothing (GET / stays the 404)', async () => {
    expect(webDir(path.join(dir, 'missing'))).toBeUndefined();
    expect(webDir(dir)).toBe(dir);
    expect((await request(app(new WebAssets(undefined))).get('/')).status).toBe(404);
  });
});
