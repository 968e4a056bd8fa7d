/**
 * The where parser on pathological input (formerly time bounds inside
 * libs/query/src/filter/where.parser.test.ts): 1000-deep nesting (refused),
 * parentheses that could make a backtracking parser run away, and the
 * `(a,eq,()~and` pattern at 200 and 800 repeats (grows about quadratically).
 * Prints the median of 5 runs of each beside the baseline measured on the
 * shared 2-core CI machine under load (November 2026). Usage: npm run bench:where
 */
import { parseWhereSyntax } from '../../libs/query/src/filter/where.parser';

const cases: { name: string; baselineMs: number; run: () => void }[] = [
  { name: '1000-deep nesting (422)', baselineMs: 0.1, run: () => tryParse('('.repeat(1000) + '(a,eq,1)' + ')'.repeat(1000)) },
  { name: '(a,eq, + 4990 ") " (422)', baselineMs: 1, run: () => tryParse(`(a,eq,${') '.repeat(4_990)}x`) },
  { name: '50 "(" + 9000 ")" (422)', baselineMs: 153, run: () => tryParse(`${'('.repeat(50)}(a,eq,${')'.repeat(9_000)}x`) },
  { name: '(a,eq,()~and x 200', baselineMs: 62, run: () => tryParse(`${'(a,eq,()~and'.repeat(200)}(a,eq,1)`) },
  { name: '(a,eq,()~and x 800', baselineMs: 182, run: () => tryParse(`${'(a,eq,()~and'.repeat(800)}(a,eq,1)`) },
];

function tryParse(where: string): void {
  try { parseWhereSyntax(where); } catch { /* a 422 is an answer too */ }
}

for (const c of cases) {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    c.run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${c.name.padEnd(32)} median ${ms[2].toFixed(1).padStart(7)} ms   (baseline ${c.baselineMs} ms)`);
}
