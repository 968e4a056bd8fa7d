// Jest reporter: prints why suites were skipped. Jest itself prints nothing for
// a file whose tests are all skipped (console output included), so
// describeWithBackend puts the reason into the suite title as
// "[skipped: REDIS_URL is not set]"; this lists each such file with its reasons
// after the run. Skipped tests without a reason are counted too.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS reporter, loaded by jest untransformed
const path = require('node:path');

const marker = /\[skipped: ([^\]]+)\]/;

class SkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const lines = [];
    for (const file of results.testResults) {
      const skipped = file.testResults.filter((t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'todo');
      if (skipped.length === 0) continue;
      const reasons = new Set();
      for (const t of skipped) {
        const found = [...t.ancestorTitles, t.title].map((title) => marker.exec(title)).find(Boolean);
        reasons.add(found ? found[1] : 'it.skip / it.todo in the file');
      }
      lines.push(`  ${path.relative(this.rootDir, file.testFilePath)}: ${skipped.length} skipped (${[...reasons].join('; ')})`);
    }
    if (lines.length === 0) return;
    process.stderr.write(`\nSkipped tests, and why:\n${lines.join('\n')}\n`);
  }
}

module.exports = SkipReporter;
