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
