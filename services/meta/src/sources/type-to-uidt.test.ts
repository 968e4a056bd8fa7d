import { uidtOf } from './type-to-uidt';

describe('database types to uidts', () => {
  it('maps database types to uidts', () => {
    expect(uidtOf({ column_name: 'id', dt: 'integer', rqd: true, pk: true, ai: true })).toBe('ID');
    expect(uidtOf({ column_name: 'x', dt: 'tinyint(1)', rqd: false, pk: false, ai: false })).toBe('Checkbox');
    expect(uidtOf({ column_name: 'x', dt: 'timestamp with time zone', rqd: false, pk: false, ai: false })).toBe('DateTime');
    expect(uidtOf({ column_name: 'x', dt: 'character varying', rqd: false, pk: false, ai: false })).toBe('SingleLineText');
  });
});
