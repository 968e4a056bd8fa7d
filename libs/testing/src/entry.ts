import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/**
 * The node arguments that run a process entry as `npm start` /
 * `npm run start:cluster` / a container do: its esbuild bundle, which jest's
 * global setup built from the current sources (no TypeScript compiled at
 * start). `source` is the entry's path from the repository root:
 * `scripts/start-standalone.ts`, `scripts/start-cluster.ts` or
 * `services/<name>/src/main.ts`.
 */
export function entryArgs(source: string): string[] {
  const bundle = source === 'scripts/start-standalone.ts' ? 'standalone'
    : source === 'scripts/start-cluster.ts' ? 'cluster'
      : /^services\/([a-z]+)\/src\/main\.ts$/.exec(source)?.[1];
  if (!bundle) throw new Error(`no bundle for entry ${source}`);
  return [path.join(root, 'dist', bundle, 'main.js')];
}
