import * as contracts from './index';
import { allEndpoints } from './registry';
import type { AnyEndpoint } from './endpoint/define-endpoint';

function isEndpoint(value: unknown): value is AnyEndpoint {
  return !!value && typeof value === 'object' && typeof (value as AnyEndpoint).path === 'string' && typeof (value as AnyEndpoint).method === 'string'
    && typeof (value as AnyEndpoint).id === 'string' && 'service' in (value as object);
}

/** Every endpoint the package exports, alone or in a client record (`metaInternalEndpoints`, `storageMetaEndpoints`…). */
function exportedEndpoints(): AnyEndpoint[] {
  const found = new Set<AnyEndpoint>(allEndpoints());
  for (const value of Object.values(contracts)) {
    if (isEndpoint(value)) found.add(value);
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) if (isEndpoint(inner)) found.add(inner);
  }
  return [...found];
}

describe('one contract per route', () => {
  it('no two contracts describe the same method and path of a service', () => {
    const byRoute = new Map<string, string[]>();
    for (const e of exportedEndpoints()) {
      const route = `${e.service} ${e.method} ${e.path}`;
      byRoute.set(route, [...(byRoute.get(route) ?? []), e.id]);
    }
    const duplicates = [...byRoute].filter(([, ids]) => ids.length > 1);
    expect(duplicates).toEqual([]);
  });

  it('every caller of meta GET /internal/tables/{tableId} uses metaInternal.tableContext', () => {
    expect(contracts.metaInternalEndpoints.tableContext).toBe(contracts.metaInternal.tableContext);
    expect(contracts.storageMetaEndpoints.tableContext).toBe(contracts.metaInternal.tableContext);
  });
});
