import { allEndpoints, defineEndpoint, pathParamNames, PUBLIC, USERS, type AnyEndpoint } from '@tabula/contracts';
import { z } from 'zod';
import { buildRouteTable, matchRoute } from './route-table';

/** A concrete path of a contract: each parameter filled with a value that is no literal of any route. */
const concrete = (e: AnyEndpoint) => pathParamNames(e.path).reduce((p, name) => p.replace(`{${name}}`, `x${name}7`), e.path);
const routed = () => allEndpoints().filter((e) => e.access !== 'internal' && e.service !== 'gateway');

describe('the gateway route table, generated from the contracts', () => {
  it('sends every public contract to its own service, with its own access, and names the contract', () => {
    const wrong = routed().flatMap((e) => {
      const rule = matchRoute(e.method, concrete(e));
      const want = { service: e.service, access: e.access === 'public' ? 'public' : 'required', endpoint: e.id };
      const got = rule && { service: rule.service, access: rule.access, endpoint: rule.endpoint?.id };
      return JSON.stringify(got) === JSON.stringify(want) ? [] : [`${e.method} ${e.path}: ${JSON.stringify(got)}`];
    });
    expect(wrong).toEqual([]);
    expect(routed().length).toBeGreaterThan(100);
  });

  it('carries how a route travels and whether a ticket stands in for credentials from its contract (no service is special)', () => {
    const special = routed().filter((e) => e.transport || e.auth.ticket).map((e) => {
      const rule = matchRoute(e.method, concrete(e));
      return [e.id, rule?.endpoint?.transport, rule?.endpoint?.auth.ticket];
    });
    expect(special).toEqual([
      ['eventsTableStream', 'stream', true], ['eventsBaseStream', 'stream', true], ['eventsSocket', 'websocket', true],
    ]);
    // a ticket is only for signed-in callers' endpoints
    expect(() => defineEndpoint({
      id: 'x', method: 'GET', path: '/api/v1/x', service: 'meta', auth: { callers: PUBLIC, ticket: true }, summary: 'x', tags: [], response: z.string(),
    })).toThrow(/needs no ticket/);
  });

  it('never dispatches internal or gateway-owned paths, nor unknown ones', () => {
    for (const e of allEndpoints().filter((x) => x.access === 'internal')) expect(matchRoute(e.method, concrete(e))).toBeUndefined();
    expect(matchRoute('GET', '/api/v1/health')).toBeUndefined();
    expect(matchRoute('GET', '/api/v1/db/meta/nothing/here')).toBeUndefined();
    expect(matchRoute('GET', '/')).toBeUndefined();
  });

  it('prefers literal segments, takes a trailing slash, sends other methods to the service for its 405, spans rest paths', () => {
    expect(matchRoute('GET', '/api/v1/db/meta/projects/p1/users')?.service).toBe('auth');
    expect(matchRoute('GET', '/api/v1/db/meta/projects/p1/s1/tables')?.service).toBe('meta');
    expect(matchRoute('POST', '/api/v1/db/data/bulk/noco/p1/t1')?.endpoint?.id).toBe('bulkInsert');
    expect(matchRoute('POST', '/api/v1/auth/user/signin/')).toMatchObject({ service: 'auth', access: 'public' });
    expect(matchRoute('PUT', '/api/v1/auth/user/signin')).toMatchObject({ service: 'auth', access: 'required', endpoint: undefined });
    expect(matchRoute('GET', '/download/a/b/c.png')).toMatchObject({ service: 'storage', access: 'public' });
    expect(matchRoute('HEAD', '/dltemp/tok.en/x')).toMatchObject({ service: 'storage', access: 'public' });
    expect(matchRoute('GET', '/download/')).toBeUndefined();
  });

  it('routes a new contract the moment it exists, and refuses two services on one path', () => {
    const mk = (service: 'meta' | 'data', method: 'GET' | 'POST', anyone = false) => defineEndpoint({
      id: `probe${service}${method}`, method, path: '/api/v9/probe/{id}', service, auth: { callers: anyone ? PUBLIC : USERS },
      summary: 'probe', tags: [], params: z.object({ id: z.string() }), response: z.object({}),
    });
    const table = buildRouteTable([mk('meta', 'GET', true), mk('meta', 'POST')]);
    expect(table('GET', '/api/v9/probe/1')).toMatchObject({ service: 'meta', access: 'public' });
    expect(table('POST', '/api/v9/probe/1')).toMatchObject({ service: 'meta', access: 'required' });
    expect(() => buildRouteTable([mk('meta', 'GET'), mk('data', 'POST')])).toThrow(/served by both meta and data/);
  });
});
