import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** Repository root and the chart. */
export const root = path.resolve(__dirname, '..', '..');
export const chartDir = path.join(root, 'charts', 'tabula');

/** A Kubernetes object as rendered (loosely typed: the schemas are checked separately). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

/** Why the chart suites skip when no renderer is found (the skip reporter prints it). */
export const NO_RENDERER = 'no chart renderer: set CHART_RENDER to a chart-render binary or put chart-render on PATH';

/**
 * The chart renderer (a binary taking `<chart> -f <values> --set-json <json> --name <n> --namespace <ns>`):
 * $CHART_RENDER, else `chart-render` on PATH, else undefined (the suites skip saying so).
 * Nothing outside the repository is looked up by a relative path.
 */
export function chartRenderer(): string | undefined {
  if (process.env.CHART_RENDER) return existsSync(process.env.CHART_RENDER) ? process.env.CHART_RENDER : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'chart-render');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** True when a command runs (`helm`, `kubectl`). */
export function hasCommand(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** Renders the chart with values files and an optional JSON override. */
export function render(bin: string, values: string[] = [], setJson?: string): string {
  const args = [chartDir, ...values.flatMap((v) => ['-f', path.join(root, v)]), ...(setJson ? ['--set-json', setJson] : []), '--name', 'tabula', '--namespace', 'tabula'];
  return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Parses multi-document YAML into objects. */
export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text).map((d) => d.toJS() as K8sObject).filter(Boolean);
}

/** Validates files against the Kubernetes schemas (kubernetes-models, an ESM script). */
export function validateFiles(files: string[]): { ok: boolean; summary: { objects: number; byKind: Record<string, number>; errors: string[] } } {
  const res = spawnSync(process.execPath, [path.join(__dirname, 'validate-objects.mjs'), ...files], { encoding: 'utf8', cwd: root });
  return { ok: res.status === 0, summary: JSON.parse(res.stdout || '{"objects":0,"byKind":{},"errors":["no output: ' + (res.stderr || '').replace(/"/g, "'").slice(0, 300) + '"]}') };
}

/** Every container (init containers included) of a workload. */
export function containersOf(o: K8sObject): Array<Record<string, any>> {
  const spec = o.spec?.template?.spec;
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

/** A release event whose hook order is checked. */
export type ReleaseEvent = 'install' | 'upgrade';

/** Helm's install order of kinds (pkg/release/util/kind_sorter.go, InstallOrder), for hooks of the same weight. */
const INSTALL_ORDER = ['PriorityClass', 'Namespace', 'NetworkPolicy', 'ResourceQuota', 'LimitRange', 'PodSecurityPolicy', 'PodDisruptionBudget',
  'ServiceAccount', 'Secret', 'SecretList', 'ConfigMap', 'StorageClass', 'PersistentVolume', 'PersistentVolumeClaim', 'CustomResourceDefinition',
  'ClusterRole', 'ClusterRoleList', 'ClusterRoleBinding', 'ClusterRoleBindingList', 'Role', 'RoleList', 'RoleBinding', 'RoleBindingList', 'Service',
  'DaemonSet', 'Pod', 'ReplicationController', 'ReplicaSet', 'Deployment', 'HorizontalPodAutoscaler', 'StatefulSet', 'Job', 'CronJob',
  'IngressClass', 'Ingress', 'APIService'];

/** The objects a workload's pods need before they can start: `Kind/name` (the ServiceAccount, ConfigMaps and Secrets it names). */
export function objectsUsedBy(o: K8sObject): string[] {
  const pod = o.spec?.template?.spec;
  if (!pod) return [];
  const used = new Set<string>();
  if (pod.serviceAccountName && pod.serviceAccountName !== 'default') used.add(`ServiceAccount/${pod.serviceAccountName}`);
  for (const c of containersOf(o)) {
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef && !from.configMapRef.optional) used.add(`ConfigMap/${from.configMapRef.name}`);
      if (from.secretRef && !from.secretRef.optional) used.add(`Secret/${from.secretRef.name}`);
    }
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.configMapKeyRef ?? e.valueFrom?.secretKeyRef;
      if (ref && !ref.optional) used.add(`${e.valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret'}/${ref.name}`);
    }
  }
  for (const v of pod.volumes ?? []) {
    if (v.secret && !v.secret.optional) used.add(`Secret/${v.secret.secretName}`);
    if (v.configMap && !v.configMap.optional) used.add(`ConfigMap/${v.configMap.name}`);
    if (v.persistentVolumeClaim) used.add(`PersistentVolumeClaim/${v.persistentVolumeClaim.claimName}`);
  }
  return [...used];
}

/**
 * What a hook of this release uses but does not find when it runs, following
 * Helm's documented order (helm.sh/docs/topics/charts_hooks, "The Order of
 * Execution"): on install, the pre-install hooks run first, one after another
 * by weight (then kind, then name), before any other object of the chart exists;
 * then the chart's objects are created; then the post-install hooks run. On an
 * upgrade the previous release's objects exist before the pre-upgrade hooks.
 * A hook deleted on success (hook-delete-policy hook-succeeded) is gone for the
 * hooks after it. Objects the chart does not render (an existing Secret of
 * your own) are taken as present. Answers one line per missing object.
 */
export function hookOrderProblems(objects: K8sObject[], event: ReleaseEvent): string[] {
  const id = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
  const hooksOf = (o: K8sObject) => (o.metadata.annotations?.['helm.sh/hook'] ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const weight = (o: K8sObject) => Number(o.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
  const kindRank = (o: K8sObject) => { const i = INSTALL_ORDER.indexOf(o.kind); return i < 0 ? INSTALL_ORDER.length : i; };
  const sorted = (list: K8sObject[]) => [...list].sort((a, b) => weight(a) - weight(b) || kindRank(a) - kindRank(b) || a.metadata.name.localeCompare(b.metadata.name));
  const deletedOnSuccess = (o: K8sObject) => (o.metadata.annotations?.['helm.sh/hook-delete-policy'] ?? '').includes('hook-succeeded');
  const rendered = new Set(objects.map(id));
  const plain = objects.filter((o) => hooksOf(o).length === 0);
  const pre = sorted(objects.filter((o) => hooksOf(o).includes(`pre-${event}`)));
  const post = sorted(objects.filter((o) => hooksOf(o).includes(`post-${event}`)));
  const present = new Set<string>(event === 'upgrade' ? plain.map(id) : []);
  const problems: string[] = [];
  const run = (hook: K8sObject, phase: string) => {
    for (const used of objectsUsedBy(hook)) {
      if (rendered.has(used) && !present.has(used)) problems.push(`${phase} hook ${id(hook)} uses ${used}, which does not exist yet when it runs`);
    }
    if (!deletedOnSuccess(hook)) present.add(id(hook));
  };
  for (const hook of pre) run(hook, `pre-${event}`);
  for (const o of plain) present.add(id(o));
  for (const hook of post) run(hook, `post-${event}`);
  return problems;
}
