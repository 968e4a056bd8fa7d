import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { backendsRequired } from '@tabula/testing';
import { chartRenderer, containersOf, hasCommand, parseObjects, render, root, validateFiles, type K8sObject } from './k8s-support';

const SERVICES = ['gateway', 'auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks'];
const SECRETISH = /(SECRET|PASSWORD|TOKEN|DATABASE_URL|REDIS_URL|SMTP_URL|ACCESS_KEY)$/;
const bin = chartRenderer();

function describeWithRenderer(name: string, body: (bin: string) => void): void {
  if (bin) { describe(name, () => body(bin)); return; }
  if (backendsRequired()) {
    describe(name, () => it('needs ../shared/tools/chart-render', () => { throw new Error('chart renderer missing (REQUIRE_BACKENDS=1)'); }));
    return;
  }
  console.warn(`${name}: skipped, no chart renderer (../shared/tools/chart-render or CHART_RENDER)`);
  describe.skip(name, () => body(''));
}

/** Writes rendered text to a temp file for the schema validator. */
function validated(text: string): { objects: number; byKind: Record<string, number>; errors: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-k8s-'));
  try {
    const file = path.join(dir, 'objects.yaml');
    writeFileSync(file, text);
    return validateFiles([file]).summary;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertInvariants(objects: K8sObject[], mode: 'cluster' | 'standalone'): void {
  const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (mode === 'cluster') {
    for (const svc of SERVICES) {
      for (const kind of ['Deployment', 'Service']) expect(named(kind, `tabula-${svc}`)).toBeDefined();
    }
  }
  const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
  for (const w of workloads) {
    const pod = w.spec.template.spec;
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    for (const c of containersOf(w)) {
      const where = `${w.kind}/${w.metadata.name}/${c.name}`;
      expect({ where, tag: /:[^:/]+$/.test(c.image) && !c.image.endsWith(':latest') }).toEqual({ where, tag: true });
      expect({ where, requests: !!c.resources?.requests, memoryLimit: !!c.resources?.limits?.memory }).toEqual({ where, requests: true, memoryLimit: true });
      expect({ where, sc: c.securityContext }).toMatchObject({ where, sc: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } });
      for (const env of c.env ?? []) {
        if (SECRETISH.test(env.name)) expect({ where, env: env.name, value: env.value }).toEqual({ where, env: env.name, value: undefined });
      }
      if (w.kind === 'Deployment') {
        expect({ where, probes: [!!c.startupProbe, c.livenessProbe?.httpGet?.path, c.readinessProbe?.httpGet?.path] })
          .toEqual({ where, probes: [true, '/healthz', '/readyz'] });
      }
    }
  }
  for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) {
    expect(Object.keys(cm.data ?? {}).filter((k) => SECRETISH.test(k))).toEqual([]);
  }
  const entry = mode === 'cluster' ? 'tabula-gateway' : 'tabula';
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    const backends = ing.spec.rules.flatMap((r: { http: { paths: Array<{ backend: { service: { name: string } } }> } }) => r.http.paths.map((p) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set([entry]));
  }
}

describeWithRenderer('Helm chart charts/tabula', (renderer) => {
  // The first render builds the renderer with Go (about a minute on a fresh machine).
  beforeAll(() => { render(renderer); }, 300_000);

  it('renders with default values: every service has Deployment, Service, HPA and PDB; objects valid', () => {
    const text = render(renderer);
    const objects = parseObjects(text);
    for (const svc of SERVICES) {
      for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
        expect(objects.some((o) => o.kind === kind && o.metadata.name === `tabula-${svc}`)).toBe(true);
      }
    }
    assertInvariants(objects, 'cluster');
    const summary = validated(text);
    console.log(`chart (default values): ${summary.objects} objects ${JSON.stringify(summary.byKind)}`);
    expect(summary.errors).toEqual([]);
  });

  it('renders with the production values file; HTTPRoute, ServiceMonitor, topics Job; objects valid', () => {
    const text = render(renderer, ['charts/tabula/values-production.yaml']);
    const objects = parseObjects(text);
    assertInvariants(objects, 'cluster');
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['HTTPRoute', 'ServiceMonitor', 'NetworkPolicy', 'Job']));
    expect(objects.some((o) => o.kind === 'Secret')).toBe(false);
    const summary = validated(text);
    console.log(`chart (production values): ${summary.objects} objects ${JSON.stringify(summary.byKind)}`);
    expect(summary.errors).toEqual([]);
  });

  it('renders standalone mode as one Deployment behind the Ingress', () => {
    const text = render(renderer, [], '{"mode":"standalone"}');
    const objects = parseObjects(text);
    expect(objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['tabula']);
    assertInvariants(objects, 'standalone');
    expect(validated(text).errors).toEqual([]);
  });

  it('runs migrations in a pre-install/pre-upgrade hook Job, one service at a time', () => {
    const job = parseObjects(render(renderer)).find((o) => o.kind === 'Job' && o.metadata.name === 'tabula-migrate')!;
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const envs = containersOf(job).map((c) => Object.fromEntries((c.env as Array<{ name: string; value?: string }>).map((e) => [e.name, e.value])));
    expect(envs.map((e) => e.SERVICE)).toEqual(['auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks']);
    expect(envs.every((e) => e.TABULA_MIGRATE_ONLY === 'true')).toBe(true);
  });

  it('refuses image tag latest', () => {
    expect(() => render(renderer, [], '{"image":{"tag":"latest"}}')).toThrow(/pin a version/);
  });

  it('k8s/ is the chart rendered (no drift), and every overlay renders valid objects', () => {
    const check = spawnSync(process.execPath, [path.join(__dirname, 'generate.mjs'), '--check'], { encoding: 'utf8', env: { ...process.env, CHART_RENDER: renderer } });
    expect(check.stdout.trim()).toBe('k8s/ matches the chart');
    // kubectl renders the overlays; CI (REQUIRE_BACKENDS=1) must have it, a laptop without it is told so.
    if (!hasCommand('kubectl', ['version', '--client'])) {
      if (backendsRequired()) throw new Error('kubectl is required to render the kustomize overlays (REQUIRE_BACKENDS=1)');
      console.warn('kustomize overlays: kubectl not installed, overlays not rendered');
      return;
    }
    for (const overlay of ['production', 'standalone']) {
      const text = execFileSync('kubectl', ['kustomize', path.join(root, 'k8s', 'overlays', overlay)], { encoding: 'utf8' });
      const objects = parseObjects(text);
      assertInvariants(objects, overlay === 'standalone' ? 'standalone' : 'cluster');
      const summary = validated(text);
      console.log(`kustomize ${overlay}: ${summary.objects} objects ${JSON.stringify(summary.byKind)}`);
      expect(summary.errors).toEqual([]);
      if (overlay === 'production') {
        expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toHaveLength(SERVICES.length);
        expect(objects.filter((o) => o.kind === 'Deployment').every((d) => d.spec.replicas === undefined)).toBe(true);
      }
    }
  });

  // Only where helm exists (it cannot be installed here): no test is registered otherwise, rather than one that passes empty.
  const helmIt = hasCommand('helm', ['version']) ? it : (name: string) => console.warn(`${name}: not run, helm is not installed`);
  helmIt('matches helm template where helm is installed', () => {
    execFileSync('helm', ['lint', path.join(root, 'charts', 'tabula')], { encoding: 'utf8' });
    const helm = parseObjects(execFileSync('helm', ['template', 'tabula', path.join(root, 'charts', 'tabula'), '--namespace', 'tabula'], { encoding: 'utf8' }));
    const ours = parseObjects(render(renderer));
    const ids = (list: K8sObject[]) => list.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(ids(helm)).toEqual(ids(ours));
  });
});

describe('values.schema.json', () => {
  const schema = JSON.parse(readFileSync(path.join(root, 'charts/tabula/values.schema.json'), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const load = (file: string) => parse(readFileSync(path.join(root, file), 'utf8'));

  /** Helm's merge of a values file over the defaults (maps merge, everything else replaces). */
  const merge = (base: unknown, over: unknown): unknown => {
    if (!base || !over || typeof base !== 'object' || typeof over !== 'object' || Array.isArray(base) || Array.isArray(over)) return over;
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
    return out;
  };

  it('accepts the default and production values', () => {
    const defaults = load('charts/tabula/values.yaml');
    expect(validate(defaults) ? [] : validate.errors).toEqual([]);
    const production = merge(defaults, load('charts/tabula/values-production.yaml'));
    expect(validate(production) ? [] : validate.errors).toEqual([]);
  });

  it('refuses a latest tag, an unknown key, a secret in the ConfigMap and a bad mode', () => {
    const defaults = load('charts/tabula/values.yaml');
    for (const bad of [
      { ...defaults, image: { ...defaults.image, tag: 'latest' } },
      { ...defaults, replicaCount: 3 },
      { ...defaults, config: { ...defaults.config, SVC_JWT_SECRET: 'x'.repeat(40) } },
      { ...defaults, mode: 'serverless' },
    ]) expect(validate(bad)).toBe(false);
  });
});
