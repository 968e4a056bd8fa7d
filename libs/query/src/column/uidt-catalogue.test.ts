import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREATABLE_UIDTS, UIDT_CATALOGUE, isAutoUidt, isVirtualUidt, systemColumnOf, uidtEntry, valueRuleOf, type UidtEntry } from './uidt-catalogue';
import { columnKind } from './column-kind';

const entries = Object.entries(UIDT_CATALOGUE) as [string, UidtEntry][];

/** The uidts the spec lists under "Values of uidt, by group". */
function specUidts(): string[] {
  const spec = readFileSync(join(__dirname, '../../../../../shared/spec/api-spec.md'), 'utf8');
  const section = spec.slice(spec.indexOf('Values of uidt, by group'), spec.indexOf('colOptions shapes'));
  return [...section.matchAll(/^- [^:]+: (.+)$/gm)].flatMap((m) => m[1].split(',').map((u) => u.trim()));
}

describe('uidt catalogue', () => {
  it('lists every uidt of the spec as creatable', () => {
    const spec = specUidts();
    expect(spec.length).toBeGreaterThan(30);
    for (const uidt of spec) expect(CREATABLE_UIDTS).toContain(uidt);
  });

  it('physical uidts have a storage and a type on every dialect; the others have none', () => {
    for (const [uidt, e] of entries) {
      if (e.kind === 'physical' && e.creatable) {
        expect({ uidt, storage: !!e.storage, pg: !!e.types?.pg, mysql: !!e.types?.mysql, sqlite: !!e.types?.sqlite })
          .toEqual({ uidt, storage: true, pg: true, mysql: true, sqlite: true });
      }
      if (e.kind !== 'physical') expect({ uidt, storage: e.storage, types: e.types }).toEqual({ uidt, storage: undefined, types: undefined });
    }
  });

  it('virtual uidts compare as virtual and take no value; system uidts point at a system column and are maintained', () => {
    for (const [uidt, e] of entries) {
      if (e.kind === 'virtual') expect({ uidt, compare: e.compare, value: e.value }).toEqual({ uidt, compare: 'virtual', value: 'none' });
      if (e.kind === 'system') expect({ uidt, column: !!e.systemColumn, auto: e.auto }).toEqual({ uidt, column: true, auto: true });
      if (e.kind !== 'system') expect(e.systemColumn).toBeUndefined();
      if (e.kind !== 'virtual') expect({ uidt, compare: e.compare }).not.toEqual({ uidt, compare: 'virtual' });
    }
  });

  it('agrees on Count: virtual for meta, data and the query compiler alike', () => {
    expect(isVirtualUidt('Count')).toBe(true);
    expect(columnKind({ id: 'c', title: 'n', column_name: 'n', uidt: 'Count' })).toBe('virtual');
    expect(CREATABLE_UIDTS).not.toContain('Count');
  });

  it('answers the lookups the services rely on', () => {
    expect(['Links', 'LinkToAnotherRecord', 'Lookup', 'Rollup', 'Formula', 'QrCode', 'Barcode', 'Button'].every(isVirtualUidt)).toBe(true);
    expect(systemColumnOf('CreatedTime')).toBe('created_at');
    expect(systemColumnOf('LastModifiedBy')).toBe('updated_by');
    expect(['ID', 'AutoNumber', 'UUID', 'CreatedTime'].every(isAutoUidt)).toBe(true);
    expect(isAutoUidt('Number')).toBe(false);
    expect(valueRuleOf('Percent')).toBe('decimal');
    expect(valueRuleOf('NotAType')).toBe('raw');
    expect(uidtEntry('__proto__')).toBeUndefined();
    expect(UIDT_CATALOGUE.SingleLineText.types).toEqual({ pg: 'text', mysql: 'varchar', sqlite: 'text' });
  });
});
