import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UIDT_CATALOGUE } from '@tabula/query';

/**
 * Groupings of column types live in the uidt catalogue (libs/query), each a
 * named group with its predicate. This guard fails on a local grouping in
 * library or service code: a list of two or more uidt names (`new Set([...])`,
 * `[...].includes`, `whereIn`) or a chain `uidt === 'X' || uidt === 'Y'`.
 * Tests, fixtures and the catalogue itself are exempt.
 */
const root = path.resolve(__dirname, '..', '..');
const CATALOGUE = path.join('libs', 'query', 'src', 'column', 'uidt-catalogue.ts');
const name = `'(?:${Object.keys(UIDT_CATALOGUE).join('|')})'`;
const LIST = new RegExp(`\\[[^\\][]*${name}\\s*,\\s*${name}`);
const CHAIN = new RegExp(`uidt\\s*[!=]==?\\s*${name}[^;\\n]*(?:\\|\\||&&)[^;\\n]*uidt\\s*[!=]==?\\s*${name}`);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

function sourceDirs(): string[] {
  return ['libs', 'services'].flatMap((top) => readdirSync(path.join(root, top), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(root, top, e.name, 'src')))
    .filter((dir) => { try { return readdirSync(dir).length > 0; } catch { return false; } });
}

describe('uidt groups', () => {
  it('live only in the catalogue: no local lists or chains of uidt names in libs/*/src and services/*/src', () => {
    const found = sourceDirs().flatMap(sources)
      .filter((file) => path.relative(root, file) !== CATALOGUE)
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (
        LIST.test(line) || CHAIN.test(line) ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`] : []
      )));
    expect(found).toEqual([]);
  });
});
