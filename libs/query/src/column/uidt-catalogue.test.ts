import {
  CREATABLE_UIDTS, UIDT_CATALOGUE, isAutoUidt, isVirtualUidt, systemColumnOf, uidtEntry, uidtsIn, valueRuleOf,
  isDtCompareUidt, isFormulaDatetimeUidt, isFormulaNumberUidt, isFormulaTextUidt, isIntegerKeyUidt, isJsonNumberUidt,
  isJsonParsedUidt, isLinkUidt, isNoLookupUidt, isPgJsonNumberUidt, isPgJsonTextUidt, isCalendarDateUidt, isUserStampUidt, isUserListUidt, isCodeOfColumnUidt, isNoCodeSourceUidt, isPrimaryValueUidt, isRelationUidt,
  isScaledUidt, isSelectUidt, isSwaggerStringUidt, isThroughLinkUidt, isUnindexableUidt,
  type UidtEntry, type UidtGroup,
} from './uidt-catalogue';
import { columnKind } from './column-kind';

const entries = Object.entries(UIDT_CATALOGUE) as [string, UidtEntry][];

/**
 * The uidts of the interface spec (api-spec.md, "Values of uidt, by group"),
 * copied here in its order so the test reads nothing outside the repository.
 */
const SPEC_UIDTS = [
  'SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', // Text
  'Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', // Numeric
  'Date', 'DateTime', 'Time', 'Year', // Date and time
  'SingleSelect', 'MultiSelect', // Select
  'LinkToAnotherRecord', 'Lookup', 'Rollup', // Relationship
  'Attachment', 'Checkbox', 'QrCode', 'Barcode', 'JSON', // Special
  'ID', 'AutoNumber', 'CreatedTime', 'LastModifiedTime', // Auto
  'User', 'Collaborator', 'CreatedBy', 'LastModifiedBy', // User
  'Formula', // Formula
  'Button', 'GeoData', 'Geometry', 'AI', 'UUID', // Other
];

/**
 * Each group's members: the local sets, lists and `||` chains the call sites
 * held before the groups moved into the catalogue, member for member.
 */
const GROUP_MEMBERS: Record<UidtGroup, string[]> = {
  link: ['LinkToAnotherRecord', 'Links'],
  throughLink: ['Lookup', 'Rollup'],
  relation: ['Links', 'LinkToAnotherRecord', 'Lookup', 'Rollup', 'ForeignKey'],
  select: ['SingleSelect', 'MultiSelect'],
  dtCompare: ['ID', 'ForeignKey'],
  noLookup: ['Formula', 'ForeignKey'],
  primaryValue: ['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'Number', 'Decimal', 'Date', 'DateTime', 'SingleSelect', 'UUID'],
  unindexable: ['LongText', 'JSON', 'Attachment', 'MultiSelect', 'GeoData', 'AI'],
  scaled: ['Duration'],
  integerKey: ['Number', 'AutoNumber'],
  formulaNumber: ['Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'AutoNumber', 'Year', 'Count'],
  formulaText: ['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'JSON', 'Time', 'UUID', 'GeoData', 'User', 'Collaborator', 'CreatedBy', 'LastModifiedBy'],
  formulaDatetime: ['DateTime', 'CreatedTime', 'LastModifiedTime'],
  swaggerString: ['SingleLineText', 'LongText', 'PhoneNumber', 'GeoData', 'Geometry', 'AI', 'User', 'Collaborator', 'CreatedBy', 'LastModifiedBy'],
  jsonNumber: ['Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Year', 'AutoNumber'],
  jsonParsed: ['Attachment', 'JSON'],
  pgJsonNumber: ['Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Year', 'AutoNumber', 'ID'],
  pgJsonText: ['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'ID', 'UUID'],
  calendarDate: ['Date', 'DateTime', 'CreatedTime', 'LastModifiedTime'],
  userStamp: ['CreatedBy', 'LastModifiedBy'],
  userList: ['User', 'Collaborator'],
  codeOfColumn: ['QrCode', 'Barcode'],
  noCodeSource: ['QrCode', 'Barcode', 'Button', 'Links', 'LinkToAnotherRecord', 'Attachment'],
};

const PREDICATES: Record<UidtGroup, (uidt: string) => boolean> = {
  link: isLinkUidt, throughLink: isThroughLinkUidt, relation: isRelationUidt, select: isSelectUidt,
  dtCompare: isDtCompareUidt, noLookup: isNoLookupUidt, primaryValue: isPrimaryValueUidt, unindexable: isUnindexableUidt,
  scaled: isScaledUidt, integerKey: isIntegerKeyUidt, formulaNumber: isFormulaNumberUidt, formulaText: isFormulaTextUidt,
  formulaDatetime: isFormulaDatetimeUidt, swaggerString: isSwaggerStringUidt, jsonNumber: isJsonNumberUidt,
  jsonParsed: isJsonParsedUidt, pgJsonNumber: isPgJsonNumberUidt, pgJsonText: isPgJsonTextUidt, calendarDate: isCalendarDateUidt,
  userStamp: isUserStampUidt, userList: isUserListUidt, codeOfColumn: isCodeOfColumnUidt, noCodeSource: isNoCodeSourceUidt,
};

describe('uidt catalogue', () => {
  it('lists every uidt of the spec as creatable, in the spec\'s order, plus Links', () => {
    expect(CREATABLE_UIDTS.filter((u) => u !== 'Links')).toEqual(SPEC_UIDTS);
    expect(CREATABLE_UIDTS).toContain('Links');
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

  it('declares each group on exactly the members its call sites relied on', () => {
    for (const [group, members] of Object.entries(GROUP_MEMBERS)) {
      expect({ group, members: [...uidtsIn(group as UidtGroup)].sort() }).toEqual({ group, members: [...members].sort() });
    }
  });

  it('answers each group predicate from the catalogue, false for unknown uidts', () => {
    for (const [group, is] of Object.entries(PREDICATES)) {
      for (const uidt of [...Object.keys(UIDT_CATALOGUE), 'NotAType', '__proto__', 'constructor', '']) {
        expect({ group, uidt, member: is(uidt) }).toEqual({ group, uidt, member: GROUP_MEMBERS[group as UidtGroup].includes(uidt) });
      }
    }
  });
});
