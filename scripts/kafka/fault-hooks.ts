/**
 * Fault runs 1 and 4 of issue 30 (scripts/kafka/hooks-fault-run.ts):
 *
 *   npm run build
 *   npm run kafka:fault:kill    # kill -9 one of two hooks replicas mid-stream
 *   npm run kafka:fault:join    # a second hooks replica joins mid-stream
 *
 * (DATABASE_URL, REDIS_URL as for the tests.) On KAFKA_BROKERS when set, else
 * on a broker of its own (free port, temporary data dir), stopped at the end.
 * Prints the counts as JSON; exits 1 on a loss, a failed write or (join) a
 * record out of order. FAULT_WRITE_MS (default 20000), FAULT_AT_MS (6000),
 * FAULT_TABLES (6) shape the stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHooksFault, type HooksFaultMode } from './hooks-fault-run';
// @ts-expect-error plain ESM script without types
import { bootstrapOf, brokerSettings, fetchJars, formatStorage, resolvePort, startNode, stopNode, waitReady } from './broker.mjs';

async function main(): Promise<void> {
  const mode = process.argv[2] as HooksFaultMode;
  if (mode !== 'kill' && mode !== 'join') throw new Error('usage: fault-hooks.ts kill|join');
  let brokers = process.env.KAFKA_BROKERS;
  let stopBroker = async () => undefined as unknown;
  if (!brokers) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-fault-kafka-'));
    const settings = await resolvePort(brokerSettings({ ...process.env, KAFKA_PORT: 'auto' }, { dataDir, nodes: 1 }));
    fetchJars();
    formatStorage(settings);
    await startNode(settings, 1);
    await waitReady(settings);
    brokers = bootstrapOf(settings) as string;
    stopBroker = async () => { await stopNode(settings, 1); rmSync(dataDir, { recursive: true, force: true }); };
  }
  try {
    const counts = await runHooksFault({
      mode, brokers,
      writeMs: Number(process.env.FAULT_WRITE_MS ?? 20_000),
      faultAtMs: Number(process.env.FAULT_AT_MS ?? 6_000),
      tables: Number(process.env.FAULT_TABLES ?? 6),
    });
    const what = mode === 'kill' ? 'kill -9 of one of two hooks replicas' : 'a hooks replica joining';
    console.log(`fault run (${what} under single inserts): ${JSON.stringify(counts)}`);
    if (counts.losses > 0 || counts.failedWrites > 0 || (mode === 'join' && counts.outOfOrder > 0)) process.exitCode = 1;
  } finally {
    await stopBroker();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
