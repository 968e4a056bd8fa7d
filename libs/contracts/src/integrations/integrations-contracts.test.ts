import { allEndpoints, buildOpenApi, integrationsEndpoints } from '../index';

describe('integrations contracts', () => {
  it('are registered and publish their public paths (internal ones stay out of the document)', () => {
    const ids = allEndpoints().map((e) => e.id);
    for (const id of Object.keys(integrationsEndpoints)) expect(ids).toContain(id);
    const doc = buildOpenApi(allEndpoints(), { title: 't', version: '1' }) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/api/v2/meta/integrations', '/api/v2/meta/integrations/{integrationId}', '/api/v2/integrations',
      '/api/v2/integrations/{type}/{subType}', '/api/v2/integrations/{integrationId}/store', '/api/v2/integrations/{integrationId}/{endpoint}',
    ]));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal/'))).toBe(false);
  });

  it('parse NocoDB\'s text flags and refuse anything else', () => {
    const q = integrationsEndpoints.integrationGet.query!;
    expect(q.parse({ includeConfig: 'true' })).toEqual({ includeConfig: true, includeSources: false });
    expect(q.safeParse({ includeConfig: 'yes' }).success).toBe(false);
    expect(integrationsEndpoints.integrationCreate.body!.safeParse({ title: 'x'.repeat(129), type: 'ai', sub_type: 'openai' }).success).toBe(false);
  });
});
