import request from 'supertest';
import { openApiTypes, startTestStack, validateOpenApi, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { contractRoutes, keyOf, servedRoutes, type ServedRoute } from './route-inventory';
import { allEndpoints } from '@tabula/contracts';

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>; components: { securitySchemes: Record<string, unknown> } };

describe('OpenAPI document and docs page', () => {
  let stack: TestStack;
  let doc: Doc;
  let served: ServedRoute[];
  beforeAll(async () => {
    stack = await startTestStack(allServices);
    doc = (await request(stack.url).get('/api/v1/openapi.json').expect(200)).body as Doc;
    served = await servedRoutes(allServices);
  });
  afterAll(async () => { await stack?.stop(); });

  it('GET /api/v1/openapi.json validates as OpenAPI 3.1 with auth schemes, error bodies and examples', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(validateOpenApi(doc)).resolves.toMatchObject({ valid: true });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'xcAuth', 'xcToken']);
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(100);
    const signIn = doc.paths['/api/v1/auth/user/signin'].post as unknown as { responses: Record<string, { content: Record<string, { example?: unknown; schema: unknown }> }> };
    expect(signIn.responses['200'].content['application/json'].example).toBeDefined();
    expect(signIn.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal/'))).toBe(false);
    await expect(openApiTypes(doc)).resolves.toContain('operations');
  }, 120_000);

  it('lists exactly the public routes the services serve, and every served route has a contract', () => {
    const contracts = contractRoutes();
    const servedKeys = new Set(served.map((r) => r.key));
    const missingContract = served.filter((r) => !contracts.has(r.key)).map((r) => `${r.service}: ${r.key}`);
    expect(missingContract).toEqual([]);
    const wrongService = served.filter((r) => contracts.get(r.key)!.service !== r.service).map((r) => `${r.service}: ${r.key}`);
    expect(wrongService).toEqual([]);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.filter((k) => !servedKeys.has(k))).toEqual([]);
    const publicServed = [...servedKeys].filter((k) => contracts.get(k)!.access !== 'internal');
    expect(publicServed.filter((k) => !documented.includes(k))).toEqual([]);
    expect(allEndpoints().map(keyOf).filter((k) => !servedKeys.has(k))).toEqual([]);
  });

  it('GET /api/docs serves HTML whose scripts, styles and document all load', async () => {
    const page = await request(stack.url).get('/api/docs').expect(200);
    expect(page.type).toBe('text/html');
    const urls = [...page.text.matchAll(/(?:src|href|data-url)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual(expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/v1/openapi.json']));
    for (const url of urls) {
      const res = await request(stack.url).get(url);
      expect([url, res.status]).toEqual([url, 200]);
      expect(Number(res.headers['content-length'] ?? res.text?.length ?? 0)).toBeGreaterThan(0);
    }
    const bundle = await request(stack.url).get('/api/docs/swagger-ui-bundle.js').expect(200);
    expect(bundle.type).toBe('application/javascript');
    expect(bundle.text).toContain('SwaggerUIBundle');
    const escape = await request(stack.url).get('/api/docs/..%2Fpackage.json');
    expect([400, 404]).toContain(escape.status);
    await request(stack.url).get('/api/docs/index.html').expect(404);
  });
});
