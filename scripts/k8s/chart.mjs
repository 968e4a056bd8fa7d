// Renders charts/tabula: with the chart-render binary named by $CHART_RENDER or found
// on PATH (Helm's template engine parts), else with `helm template` where helm is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const chartDir = path.join(root, 'charts', 'tabula');

/** Path of the renderer, or undefined when neither it nor helm exists. */
export function renderer() {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'chart-render'));
  const found = process.env.CHART_RENDER ? (existsSync(process.env.CHART_RENDER) ? process.env.CHART_RENDER : undefined) : onPath.find((c) => existsSync(c));
  if (found) return { kind: 'chart-render', bin: found };
  if (spawnSync('helm', ['version'], { stdio: 'ignore' }).status === 0) return { kind: 'helm', bin: 'helm' };
  return undefined;
}

/** Renders the chart with values files (paths) and an optional JSON override. */
export function renderChart({ values = [], setJson, name = 'tabula', namespace = 'tabula', tool = renderer() } = {}) {
  if (!tool) throw new Error('no chart renderer: set CHART_RENDER to a chart-render binary, put chart-render on PATH, or install helm');
  const valueArgs = values.flatMap((v) => ['-f', v]);
  const args = tool.kind === 'helm'
    ? ['template', name, chartDir, '--namespace', namespace, ...valueArgs, ...(setJson ? ['--set-json', setJson] : [])]
    : [chartDir, ...valueArgs, ...(setJson ? ['--set-json', setJson] : []), '--name', name, '--namespace', namespace];
  return execFileSync(tool.bin, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}
