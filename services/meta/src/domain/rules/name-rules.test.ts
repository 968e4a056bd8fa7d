import fc from 'fast-check';
import { columnNameOf, identifierFrom, tableNameOf, uniqueName } from './name-rules';

describe('name rules', () => {
  it('maps $ and ? to _, refuses . / \\ and anything outside the strict pattern', () => {
    expect(tableNameOf('a$b?c', 'x')).toBe('a_b_c');
    for (const bad of ['a.b', 'a/b', 'a\\b', "x'; drop", 'a b', 'x'.repeat(64)]) expect(() => tableNameOf(bad, 'x')).toThrow();
    expect(tableNameOf(undefined, 'My Table!')).toBe('My_Table');
    expect(columnNameOf(undefined, '1st col')).toBe('_1st_col');
  });

  it('always generates strict identifiers from any title', () => {
    fc.assert(fc.property(fc.string(), (title) => /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(identifierFrom(title, 'field'))));
  });

  it('makes names unique case-insensitively', () => {
    expect(uniqueName('Name', ['name', 'Name_1'])).toBe('Name_2');
  });
});
