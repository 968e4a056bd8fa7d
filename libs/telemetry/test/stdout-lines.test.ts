import { spawn } from 'node:child_process';
import path from 'node:path';

const child = path.join(__dirname, 'fixtures', 'stdout-lines.child.ts');

/** Runs the child; resolves with its stdout and when each chunk of it arrived (ms after start) once it exits. */
function run(args: string[]): Promise<{ out: string; arrivals: { at: number; text: string }[]; exitedAt: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_FORMAT: 'json' } });
    const arrivals: { at: number; text: string }[] = [];
    proc.stdout.on('data', (chunk: Buffer) => arrivals.push({ at: Date.now() - started, text: chunk.toString() }));
    proc.once('error', reject);
    proc.once('close', () => resolve({ out: arrivals.map((a) => a.text).join(''), arrivals, exitedAt: Date.now() - started }));
  });
}

describe('the stdout destination (lines batched up to 4 KiB or 100 ms)', () => {
  it('a lone line reaches stdout within the periodic flush, long before the process exits', async () => {
    const { arrivals, exitedAt } = await run(['one']);
    const first = arrivals.find((a) => a.text.includes('"msg":"one line"'));
    expect(first).toBeDefined();
    // The child lives 1.5 s after writing; the 100 ms periodic flush sends the line well before that.
    expect(exitedAt - first!.at).toBeGreaterThan(1000);
  }, 30_000);

  it('every line written before process.exit is flushed, whole and in order', async () => {
    const { out } = await run(['many', '3000']);
    const lines = out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { n: number; service: string });
    expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect(new Set(lines.map((l) => l.service))).toEqual(new Set(['probe']));
  }, 30_000);

  it('lines written before an uncaught error are flushed too', async () => {
    const { out } = await run(['throw', '50']);
    const lines = out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { n: number });
    expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  }, 30_000);
});
