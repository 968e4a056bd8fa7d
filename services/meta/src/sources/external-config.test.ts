import { sqlitePath } from './external-config';

describe('external source config', () => {
  it('keeps SQLite files under DATA_DIR/sqlite', () => {
    expect(sqlitePath('a/b.db', '/data')).toBe('/data/sqlite/a/b.db');
    for (const bad of ['../x.db', '/etc/passwd', 'a/../../x.db', '', 'a\0b']) expect(() => sqlitePath(bad, '/data')).toThrow();
  });
});
