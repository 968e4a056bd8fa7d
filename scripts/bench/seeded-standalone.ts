import path from 'node:path';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup, type BenchTable } from './records-fixture';
import { poster } from './records-load';
import { runOps, type LoadResult } from './load';
import { startStandaloneChild, type StandaloneChild } from './standalone-child';

/** A standalone Tabula in its own process on its own fresh database, with a signed-up user and a 100,000-row table. */
export interface SeededStandalone {
  server: StandaloneChild;
  dbUrl: string;
  token: string;
  table: BenchTable;
  /** The table's v1 records collection URL. */
  recordsUrl: string;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts one (`tag`: `[a-z0-9_]`, names its database and data folder) at
 * `npm start`'s defaults (access lines, tracing on without an exporter), from
 * `bundle` (another build's standalone-server.js) or this tree's; `env` is
 * added to the server's environment.
 */
export async function startSeededStandalone(tag: string, env: NodeJS.ProcessEnv = {}, bundle?: string): Promise<SeededStandalone> {
  const dbUrl = await freshDatabase(tag);
  const previous = process.env.BENCH_STANDALONE_BUNDLE;
  if (bundle) process.env.BENCH_STANDALONE_BUNDLE = bundle;
  else delete process.env.BENCH_STANDALONE_BUNDLE;
  try {
    const server = await startStandaloneChild({
      LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'false', ...process.env, ...env, DATABASE_URL: dbUrl, DATA_DIR: path.resolve(`data/bench-${tag}`),
    }, 'data');
    const { token } = await signup(server.url);
    const table = await createTable(server.url, token, 'Bench100k');
    await fillTable(dbUrl, table, 100_000);
    return {
      server, dbUrl, token, table,
      recordsUrl: `${server.url}/api/v1/db/data/noco/${table.baseId}/${table.title}`,
      stop: async () => {
        await server.stop();
        await dropDatabase(dbUrl);
      },
    };
  } finally {
    if (previous === undefined) delete process.env.BENCH_STANDALONE_BUNDLE;
    else process.env.BENCH_STANDALONE_BUNDLE = previous;
  }
}

/** A closed loop of single inserts (sampleBody rows) on `url` for `ms`. */
export function insertLoad(label: string, url: string, headers: Record<string, string>, concurrency: number, ms: number): Promise<LoadResult> {
  const p = poster(url, headers, concurrency);
  return runOps(label, (i) => p.post(sampleBody(i)), concurrency, ms).finally(() => p.close());
}

/** The median (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
