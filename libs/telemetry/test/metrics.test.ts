import { Histogram, Registry } from 'prom-client';
import { RouteHistogram } from '../src/metrics';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function pair() {
  const fast = new Registry();
  const plain = new Registry();
  const config = { name: 'http_server_duration_seconds', help: 'HTTP request duration by route template', labelNames: ['method', 'route', 'status'] as const, buckets: BUCKETS };
  return {
    fast, plain,
    route: new RouteHistogram({ ...config, registers: [fast] }),
    histogram: new Histogram({ ...config, registers: [plain] }),
  };
}

const values = [0, 0.0005, 0.001, 0.0010001, 0.003, 0.05, 0.07, 0.25, 0.9, 1, 4.2, 10, 10.5, 300];
const labelSets = [['GET', '/api/v1/db/data/:orgs/:baseName/:tableName/:rowId', '200'], ['POST', '/api/v1/db/data/:orgs/:baseName/:tableName', '200'], ['GET', 'unmatched', '404'], ['GET', '/x y', '200']];

describe('RouteHistogram', () => {
  it('exports exactly what a prom-client Histogram given the same observations exports', async () => {
    const { fast, plain, route, histogram } = pair();
    for (let round = 0; round < 3; round++) {
      for (const [method, path, status] of labelSets) {
        for (const v of values) {
          route.observeRoute(method, path, status, v * (round + 1));
          histogram.observe({ method, route: path, status }, v * (round + 1));
        }
      }
    }
    expect(await fast.metrics()).toBe(await plain.metrics());
    expect(await fast.metrics()).toContain('http_server_duration_seconds_count{method="GET",route="unmatched",status="404"} 42');
    expect(JSON.stringify(await fast.getMetricsAsJSON())).toBe(JSON.stringify(await plain.getMetricsAsJSON()));
  });

  it('after a reset starts again from zero, and still matches', async () => {
    const { fast, plain, route, histogram } = pair();
    route.observeRoute('GET', '/a', '200', 0.2);
    histogram.observe({ method: 'GET', route: '/a', status: '200' }, 0.2);
    fast.resetMetrics();
    plain.resetMetrics();
    for (const v of values) {
      route.observeRoute('GET', '/a', '200', v);
      histogram.observe({ method: 'GET', route: '/a', status: '200' }, v);
    }
    expect(await fast.metrics()).toBe(await plain.metrics());
    expect(await fast.metrics()).toContain(`http_server_duration_seconds_count{method="GET",route="/a",status="200"} ${values.length}`);
  });

  it('refuses a value that is not a finite number, as observe does, and records nothing for it', async () => {
    const { fast, route } = pair();
    route.observeRoute('GET', '/a', '200', 0.2);
    expect(() => route.observeRoute('GET', '/a', '200', Number.NaN)).toThrow(TypeError);
    expect(() => route.observeRoute('GET', '/b', '200', Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(await fast.metrics()).toContain('http_server_duration_seconds_count{method="GET",route="/a",status="200"} 1');
  });
});
