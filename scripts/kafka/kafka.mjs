#!/usr/bin/env node
// npm run kafka:start [-- --nodes 3]   fetch (first run), format, start, wait until the broker answers; prints KAFKA_BROKERS
// npm run kafka:stop                  stops every node of the data dir (controlled shutdown)
// node scripts/kafka/kafka.mjs status  prints the running nodes
// Both start and stop are idempotent. Settings: KAFKA_PORT, KAFKA_DATA_DIR,
// (a port, or auto: a free one), KAFKA_HEAP_OPTS, KAFKA_START_TIMEOUT_S, JAVA_HOME (docs/kafka.md).
import { bootstrapOf, brokerSettings, fetchJars, formatStorage, recordedSettings, resolvePort, runningNodes, startNode, stopNode, waitReady } from './broker.mjs';

function parseArgs(argv) {
  const [command = 'start', ...rest] = argv;
  const overrides = {};
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split('=');
    const value = inline ?? rest[++i];
    if (flag === '--nodes') overrides.nodes = value;
    else if (flag === '--port') overrides.port = value;
    else if (flag === '--data-dir') overrides.dataDir = value;
    else throw new Error(`kafka: unknown option ${rest[i]}`);
  }
  return { command, overrides };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function start(settings) {
  const started = Date.now();
  const already = runningNodes(settings);
  if (already.length === settings.nodes && recordedSettings(settings).port === settings.port && recordedSettings(settings).nodes === settings.nodes) {
    await waitReady(settings);
    console.log(`kafka: already running (${settings.nodes} node${settings.nodes > 1 ? 's' : ''}, ${settings.dataDir})`);
    console.log(`KAFKA_BROKERS=${bootstrapOf(settings)}`);
    return;
  }
  if (already.length) {
    console.log(`kafka: stopping the ${already.length} node(s) running from ${settings.dataDir} with another shape`);
    await stop(settings);
  }
  const fetchMs = fetchJars();
  formatStorage(settings);
  for (let id = 1; id <= settings.nodes; id++) await startNode(settings, id);
  await waitReady(settings);
  const total = Date.now() - started;
  console.log(`kafka: ready in ${seconds(total)}${fetchMs ? ` (Maven fetch ${seconds(fetchMs)}, broker start ${seconds(total - fetchMs)})` : ''}; ${settings.nodes} node${settings.nodes > 1 ? 's' : ''}, data in ${settings.dataDir}`);
  console.log(`KAFKA_BROKERS=${bootstrapOf(settings)}`);
}

async function stop(settings) {
  const recorded = recordedSettings(settings);
  const nodes = runningNodes(settings);
  if (!nodes.length) {
    console.log(`kafka: not running (${settings.dataDir})`);
    return;
  }
  await Promise.all(nodes.map((node) => stopNode(recorded, node.id)));
  console.log(`kafka: stopped ${nodes.length} node${nodes.length > 1 ? 's' : ''} (${nodes.map((node) => node.port).join(', ')})`);
}

async function main() {
  const { command, overrides } = parseArgs(process.argv.slice(2));
  const given = brokerSettings(process.env, overrides);
  const settings = command === 'start' ? await resolvePort(given) : recordedSettings(given);
  if (command === 'start') await start(settings);
  else if (command === 'stop') await stop(settings);
  else if (command === 'status') {
    const nodes = runningNodes(settings);
    console.log(nodes.length ? nodes.map((node) => `node ${node.id}: pid ${node.pid}, 127.0.0.1:${node.port}`).join('\n') : `kafka: not running (${settings.dataDir})`);
  } else throw new Error(`kafka: unknown command ${command} (start, stop, status)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
