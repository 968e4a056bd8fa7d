import { spawn, type ChildProcess } from 'node:child_process';
import { bundledArgs } from './bundled';

/** A standalone Tabula running in a child process (see standalone-server.ts). */
export interface StandaloneChild {
  child: ChildProcess;
  /** The gateway. */
  url: string;
  /** One service's handler on its own port. */
  directUrl: string;
  /** Every requested service's handler on its own port (`service` may list several, comma-separated). */
  directUrls: Record<string, string>;
  /** The internal secret, to forge the gateway's identity header for direct calls. */
  secret: string;
  /** The environment it runs with. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * Starts standalone Tabula in its own process, so the load generator and the
 * server do not share an event loop (which skews every figure), from an
 * esbuild bundle like the one `npm start` runs (bundled.ts). `nodeArgs`: node's
 * own flags (`--cpu-prof`, which NODE_OPTIONS does not take).
 */
export async function startStandaloneChild(env: NodeJS.ProcessEnv, service = 'data', nodeArgs: string[] = []): Promise<StandaloneChild> {
  const childEnv: NodeJS.ProcessEnv = { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', ...env };
  // BENCH_STANDALONE_BUNDLE: an already built standalone-server bundle (another commit's, for a before/after in one window) instead of this tree's.
  const bundle = process.env.BENCH_STANDALONE_BUNDLE ? [process.env.BENCH_STANDALONE_BUNDLE] : bundledArgs('scripts/bench/standalone-server.ts');
  const child = spawn(process.execPath, [...nodeArgs, ...bundle, service], { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      // The server's one line of addresses; log lines written before it (start-up logs) are skipped.
      const found = buffer.split('\n').find((candidate) => candidate.startsWith('{"url":'));
      if (!found) return;
      // From here on its log lines (access logs when LOG_LEVEL is info) are only drained, as a log
      // collector would: kept or parsed here they would cost the load generator's CPU, not the server's.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve(found);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`standalone server exited (${code})`)));
  });
  const info = JSON.parse(line) as { url: string; directUrl: string; directUrls: Record<string, string>; secret: string };
  return {
    child, ...info, env: childEnv,
    stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}
