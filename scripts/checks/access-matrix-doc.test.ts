import { existsSync, readFileSync } from 'node:fs';
import { ACCESS_MATRIX_DOC, renderAccessMatrix } from '../access/access-matrix-doc';

describe('docs/access-matrix.md', () => {
  it('is what the contracts declare (a changed permission is a reviewed diff: run npm run docs:access-matrix)', () => {
    expect(existsSync(ACCESS_MATRIX_DOC)).toBe(true);
    const committed = readFileSync(ACCESS_MATRIX_DOC, 'utf8').split('\n');
    const declared = renderAccessMatrix().split('\n');
    const changed = declared.filter((line, i) => committed[i] !== line).concat(committed.length !== declared.length ? [`(${committed.length} lines committed, ${declared.length} declared)`] : []);
    expect(changed).toEqual([]);
  });
});
