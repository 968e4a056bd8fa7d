import fc from 'fast-check';
import { columnNameOf, identifierFrom, tableNameOf, uniqueName } from './rules/name-rules';
import { cdfProblem, valueFits } from './rules/value-rules';
import { newId } from '../lib/ids';
import { sqlitePath } from '../sources/external-config';
import { uidtOf } from '../sources/type-to-uidt';

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

describe('value rules', () => {
  it('validates defaults per type', () => {
    expect(cdfProblem('Number', 'abc', [])).toMatch(/not valid/);
    expect(cdfProblem('Number', '12', [])).toBeUndefined();
    expect(cdfProblem('SingleSelect', 'c', ['a', 'b'])).toMatch(/not valid/);
    expect(cdfProblem('ID', '1', [])).toMatch(/not supported/);
    expect(valueFits('Date', '2024-02-29')).toBe(true);
    expect(valueFits('Date', '2023-02-29')).toBe(false);
    expect(valueFits('Date', 'yesterday')).toBe(false);
    expect(valueFits('Checkbox', 'yes')).toBe(true);
    expect(valueFits('MultiSelect', 'a,b', ['a', 'b'])).toBe(true);
  });
});

describe('ids, paths, type mapping', () => {
  it('ids are prefix + 14 [0-9a-z]', () => {
    for (let i = 0; i < 200; i += 1) expect(newId('vw')).toMatch(/^vw[0-9a-z]{14}$/);
  });

  it('keeps SQLite files under DATA_DIR/sqlite', () => {
    expect(sqlitePath('a/b.db', '/data')).toBe('/data/sqlite/a/b.db');
    for (const bad of ['../x.db', '/etc/passwd', 'a/../../x.db', '', 'a\0b']) expect(() => sqlitePath(bad, '/data')).toThrow();
  });

  it('maps database types to uidts', () => {
    expect(uidtOf({ column_name: 'id', dt: 'integer', rqd: true, pk: true, ai: true })).toBe('ID');
    expect(uidtOf({ column_name: 'x', dt: 'tinyint(1)', rqd: false, pk: false, ai: false })).toBe('Checkbox');
    expect(uidtOf({ column_name: 'x', dt: 'timestamp with time zone', rqd: false, pk: false, ai: false })).toBe('DateTime');
    expect(uidtOf({ column_name: 'x', dt: 'character varying', rqd: false, pk: false, ai: false })).toBe('SingleLineText');
  });
});
