import { z } from 'zod';
import { defineEndpoint } from './define-endpoint';
import { ACCOUNT, PUBLIC, SERVICES, USERS, permissionsOf, type EndpointAuth } from './access';

const define = (path: string, auth: EndpointAuth) => () => defineEndpoint({
  id: 'probe', method: 'GET', path, service: 'meta', auth, summary: 'probe', tags: [],
  params: z.object({ tableId: z.string() }).partial(), response: z.object({}),
});
const onTable = { via: 'table', id: (i: { params: { tableId?: string } }) => i.params.tableId } as const;

describe('access declarations are checked when a contract is defined', () => {
  it('a scope needs a permission, and a base permission or self needs a scope', () => {
    expect(define('/api/x/{tableId}', { callers: USERS, scope: onTable })).toThrow(/a scope needs a permission/);
    expect(define('/api/x', { callers: USERS, permission: 'data.read' })).toThrow(/needs a scope/);
    expect(define('/api/x', { callers: USERS, permission: 'self' })).toThrow(/needs a scope/);
    expect(define('/api/x', { callers: ACCOUNT, permission: 'base.create' })).not.toThrow();
  });

  it('public endpoints need no permission; internal ones, and only they, live under /internal/', () => {
    expect(define('/api/x/{tableId}', { callers: PUBLIC, permission: 'data.read', scope: onTable })).toThrow(/public endpoint/);
    expect(define('/api/x', { callers: SERVICES })).toThrow(/under \/internal\//);
    expect(define('/internal/x', { callers: USERS })).toThrow(/under \/internal\//);
    expect(define('/internal/x', { callers: ['service', 'session'] })).toThrow(/services only/);
  });

  it('derives the gateway access and lists several permissions in order', () => {
    expect(define('/api/x', { callers: PUBLIC })().access).toBe('public');
    expect(define('/internal/x', { callers: SERVICES })().access).toBe('internal');
    expect(permissionsOf({ callers: USERS, permission: ['base.update', 'base.create'], scope: onTable })).toEqual(['base.update', 'base.create']);
  });
});
