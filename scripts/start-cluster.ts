import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '@tabula/config';
// Imported by file, not through @tabula/runtime: the launcher process stays small (no service code).
import { clusterLayout, type ClusterLayout } from '../libs/runtime/src/cluster-layout';
import { ClusterLauncher, superviseCluster } from '../libs/runtime/src/cluster-launcher';
import { loadSettings } from '../libs/runtime/src/settings';
import { serviceConfigSchemas } from './service-configs';

/**
 * `npm run start:cluster`: the Kubernetes topology on one machine — every
 * service in its own OS process on its own port, the gateway in front on PORT.
 * Built (dist/cluster/main.js) it runs the services' bundles dist/<service>/main.js;
 * under tsx (`npm run dev:cluster`) it runs their TypeScript sources.
 * Settings: see clusterLayout (README, "Cluster mode").
 */
const compiled = path.basename(path.dirname(__filename)) === 'cluster' && path.basename(path.dirname(path.dirname(__filename))) === 'dist';
const root = path.resolve(__dirname, compiled ? '../..' : '..');

/**
 * Node flags of each service process. A 2 MB young generation keeps an idle
 * service near 80 MB RSS instead of ~125 MB (V8 otherwise grows it to 16 MB
 * per semi-space during start-up). The two services on every records request
 * (gateway, data) keep V8's 16 MB: under load a 2 MB young generation
 * scavenges several times as often, and the records bench measured 30-50 %
 * more requests per second with 16 MB in cluster mode (closing note of issue
 * 16). CLUSTER_NODE_FLAGS replaces them for every service.
 */
const HOT_SERVICES = new Set(['gateway', 'data']);
function nodeFlagsOf(name: string): string[] {
  const flags = process.env.CLUSTER_NODE_FLAGS ?? (HOT_SERVICES.has(name) ? '--max-semi-space-size=16' : '--max-semi-space-size=2');
  return flags.split(' ').filter(Boolean);
}

function commandOf(name: string): string[] {
  const bundle = path.join(root, 'dist', name, 'main.js');
  if (compiled) {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build`);
    return [process.execPath, ...nodeFlagsOf(name), bundle];
  }
  return [process.execPath, ...nodeFlagsOf(name), '--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')];
}

/** Ports, URLs and every setting of every service, checked once: one message instead of eight children failing. */
function checkedLayout(): ClusterLayout {
  const problems: string[] = [];
  let layout: ClusterLayout | undefined;
  const collect = (work: () => unknown) => {
    try {
      work();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      const seen = new Set(problems.map((p) => p.split(':')[0]));
      problems.push(...err.problems.filter((p) => !seen.has(p.split(':')[0])));
    }
  };
  collect(() => { layout = clusterLayout(process.env); });
  collect(() => loadSettings(serviceConfigSchemas, layout?.env ?? { ...process.env, TABULA_MODE: 'standalone' }));
  if (!problems.length && layout) return layout;
  console.error(`start:cluster: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const layout = checkedLayout();
  let giveUp: (reason: string) => void = () => undefined;
  const launcher = new ClusterLauncher({ layout, commandOf, cwd: root, onGiveUp: (reason) => giveUp(reason) });
  giveUp = superviseCluster(launcher).giveUp;
  await launcher.start();
  if (!(await launcher.waitReady()) && !launcher.isStopping) console.log('[cluster] not every service answered /healthz within 120 s: see the log lines above');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
