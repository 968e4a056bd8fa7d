import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Ids made by broker.mjs's newClusterId (an ES module: imported by a node child, as the scripts run it). */
function clusterIds(count: number): string[] {
  const url = pathToFileURL(path.join(__dirname, 'broker.mjs')).href;
  const source = `const { newClusterId } = await import(${JSON.stringify(url)}); console.log(JSON.stringify(Array.from({ length: ${count} }, () => newClusterId())));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' })) as string[];
}

describe('the local broker', () => {
  it('makes KRaft cluster ids the storage tool takes: 22 base64url characters, never a leading "-"', () => {
    // With a leading "-" allowed, 1 id in 64 would start so: 5,000 ids without one is 1 chance in 10^34.
    const ids = clusterIds(5_000);
    expect(ids).toHaveLength(5_000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
