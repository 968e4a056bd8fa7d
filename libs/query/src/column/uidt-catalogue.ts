/**
 * The one catalogue of column types (uidts): per uidt, whether it has a column of
 * its own (physical), none (virtual) or points at a system column (system); its
 * storage on PostgreSQL, MySQL/MariaDB and SQLite; the value rule that checks
 * and coerces client values; how it compares in a filter; and the named groups
 * it belongs to ({@link UidtGroup}). Meta's DDL and default checks, data's
 * column roles, value coercion and presenters, the query and formula compilers
 * and hooks' condition evaluator all read it (compat-notes "Tables and columns").
 */

/** Where a uidt's value lives. */
export type UidtKind = 'physical' | 'virtual' | 'system';

/** The knex builder family of a physical type (the DDL maps each to one call). */
export type Storage =
  | 'text' | 'varchar' | 'decimal' | 'bigint' | 'double' | 'smallint' | 'integer'
  | 'date' | 'datetime' | 'time' | 'boolean' | 'json' | 'increments' | 'uuid';

/**
 * How a client value is checked and coerced: meta checks defaults and type
 * changes with it, data coerces record values with it. `raw` trusts primitives.
 */
export type ValueRule =
  | 'text' | 'email' | 'url' | 'phone' | 'integer' | 'rating' | 'year' | 'decimal' | 'duration'
  | 'boolean' | 'date' | 'datetime' | 'time' | 'singleSelect' | 'multiSelect' | 'json'
  | 'attachment' | 'geoData' | 'uuid' | 'raw' | 'none';

/** How a column compares in SQL (and in memory); `virtual` has no column to compare. */
export type CompareKind = 'text' | 'number' | 'checkbox' | 'date' | 'datetime' | 'time' | 'json' | 'virtual';

/**
 * A named group of uidts, declared on each member's entry below. Where two uses
 * need different members they are different groups, named for the use:
 * - `link`: LinkToAnotherRecord, Links: the columns that relate two tables.
 * - `throughLink`: Lookup, Rollup: read the related rows through a link column.
 * - `relation`: link, throughLink and ForeignKey (a link's key): never change
 *   type, never copied with a table.
 * - `select`: SingleSelect, MultiSelect: take options, no dtxp.
 * - `dtCompare`: ID, ForeignKey: compare as text or number by their dt.
 * - `noLookup`: Formula, ForeignKey: a lookup or rollup may not read them.
 * - `primaryValue`: may become a new table's display value when none is marked.
 * - `unindexable`: values arbitrarily long or structured: a B-tree index over
 *   them is refused (and would refuse long values).
 * - `scaled`: Duration: dtxs (scale) defaults to 2 (Decimal and Currency keep the value
 *   as given, like NocoDB's: their meta.precision only says how to show it).
 * - `integerKey`: Number, AutoNumber: an integer row id part (ID by its dt).
 * - `formulaNumber`, `formulaText`, `formulaDatetime`: the formula type a
 *   reference to the column has (Checkbox, Date and ID are typed apart).
 * - `swaggerString`: a plain `{type: 'string'}` in the base's swagger document.
 * - `jsonNumber`: records present the value as a JSON number (ID apart).
 * - `jsonParsed`: Attachment, JSON: records parse the stored JSON text.
 * - `pgJsonNumber`, `pgJsonText`: pg prints the value into a record's JSON as a
 *   number or a string when its dt is numeric or textual (ID either way).
 * - `calendarDate`: a calendar view may place its records by the column (a date or a time stamp).
 * - `userStamp`: CreatedBy, LastModifiedBy: one user, set by the service, read as a user object.
 * - `userList`: User, Collaborator (NocoDB's older name of User): users of the base written by
 *   e-mail, `{id}` or `{email}`, stored as their ids, read as a list of user objects.
 * - `codeOfColumn`: QrCode, Barcode: read the value of another column of the row.
 * - `noCodeSource`: what a QrCode or Barcode may not show (codes, buttons, links, attachments).
 */
export type UidtGroup =
  | 'link' | 'throughLink' | 'relation' | 'select' | 'dtCompare' | 'noLookup' | 'primaryValue' | 'unindexable'
  | 'scaled' | 'integerKey' | 'formulaNumber' | 'formulaText' | 'formulaDatetime' | 'swaggerString'
  | 'jsonNumber' | 'jsonParsed' | 'pgJsonNumber' | 'pgJsonText' | 'calendarDate' | 'userStamp' | 'userList' | 'codeOfColumn' | 'noCodeSource';

/** One type per dialect: the `dt` recorded in metadata. */
export interface DialectTypes {
  pg: string;
  mysql: string;
  sqlite: string;
}

/** One uidt of the catalogue. */
export interface UidtEntry {
  kind: UidtKind;
  /** Physical types only. */
  storage?: Storage;
  /** Physical types only: the declared type per dialect. */
  types?: DialectTypes;
  /** System pointers only: the system column they read. */
  systemColumn?: string;
  value: ValueRule;
  compare: CompareKind;
  /** Maintained by the service: a client never writes it. */
  auto?: boolean;
  /** Never takes a client default (`cdf`). */
  noDefault?: boolean;
  /** Part of the spec's uidt list (a client may create it); false for internal ones. */
  creatable: boolean;
  /** The named groups the uidt belongs to. */
  groups?: readonly UidtGroup[];
}

const STORAGE_TYPES: Record<Storage, DialectTypes> = {
  text: { pg: 'text', mysql: 'text', sqlite: 'text' },
  varchar: { pg: 'character varying', mysql: 'varchar', sqlite: 'varchar' },
  decimal: { pg: 'decimal', mysql: 'decimal', sqlite: 'decimal' },
  bigint: { pg: 'bigint', mysql: 'bigint', sqlite: 'bigint' },
  double: { pg: 'double precision', mysql: 'double', sqlite: 'double' },
  smallint: { pg: 'smallint', mysql: 'smallint', sqlite: 'smallint' },
  integer: { pg: 'integer', mysql: 'int', sqlite: 'integer' },
  date: { pg: 'date', mysql: 'date', sqlite: 'date' },
  datetime: { pg: 'timestamp', mysql: 'datetime', sqlite: 'datetime' },
  time: { pg: 'time', mysql: 'time', sqlite: 'time' },
  boolean: { pg: 'boolean', mysql: 'tinyint', sqlite: 'boolean' },
  json: { pg: 'json', mysql: 'json', sqlite: 'json' },
  increments: { pg: 'integer', mysql: 'int', sqlite: 'integer' },
  uuid: { pg: 'uuid', mysql: 'char', sqlite: 'char' },
};

type Extra = Partial<Pick<UidtEntry, 'auto' | 'noDefault' | 'groups'>>;

function physical(storage: Storage, value: ValueRule, compare: CompareKind, extra: Extra = {}, mysql?: Storage): UidtEntry {
  const types = { ...STORAGE_TYPES[storage], ...(mysql ? { mysql: STORAGE_TYPES[mysql].mysql } : {}) };
  return { kind: 'physical', storage, types, value, compare, creatable: true, ...extra };
}

function virtual(compare: CompareKind = 'virtual', extra: Extra = {}): UidtEntry {
  return { kind: 'virtual', value: 'none', compare, creatable: true, ...extra };
}

function system(systemColumn: string, compare: CompareKind, extra: Extra = {}): UidtEntry {
  return { kind: 'system', systemColumn, value: 'none', compare, auto: true, noDefault: true, creatable: true, ...extra };
}

const g = (...groups: UidtGroup[]): Extra => ({ groups });

/**
 * Every uidt. Short texts are varchar(255) on MySQL so they can be indexed
 * (TEXT needs a key prefix for UNIQUE); PostgreSQL and SQLite keep them TEXT.
 */
export const UIDT_CATALOGUE = {
  SingleLineText: physical('text', 'text', 'text', g('primaryValue', 'formulaText', 'swaggerString', 'pgJsonText'), 'varchar'),
  LongText: physical('text', 'text', 'text', g('primaryValue', 'unindexable', 'formulaText', 'swaggerString', 'pgJsonText')),
  Email: physical('varchar', 'email', 'text', g('primaryValue', 'formulaText', 'pgJsonText')),
  URL: physical('text', 'url', 'text', g('primaryValue', 'formulaText', 'pgJsonText')),
  PhoneNumber: physical('varchar', 'phone', 'text', g('primaryValue', 'formulaText', 'swaggerString', 'pgJsonText')),
  Number: physical('bigint', 'integer', 'number', g('primaryValue', 'integerKey', 'formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Decimal: physical('decimal', 'decimal', 'number', g('primaryValue', 'formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Currency: physical('decimal', 'decimal', 'number', g('formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Percent: physical('double', 'decimal', 'number', g('formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Duration: physical('decimal', 'duration', 'number', g('scaled', 'formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Rating: physical('smallint', 'rating', 'number', g('formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  Date: physical('date', 'date', 'date', g('primaryValue', 'calendarDate')),
  DateTime: physical('datetime', 'datetime', 'datetime', g('primaryValue', 'formulaDatetime', 'calendarDate')),
  Time: physical('time', 'time', 'time', g('formulaText')),
  Year: physical('integer', 'year', 'number', g('formulaNumber', 'jsonNumber', 'pgJsonNumber')),
  SingleSelect: physical('text', 'singleSelect', 'text', g('select', 'primaryValue', 'formulaText', 'pgJsonText'), 'varchar'),
  MultiSelect: physical('text', 'multiSelect', 'text', g('select', 'unindexable', 'formulaText', 'pgJsonText')),
  LinkToAnotherRecord: virtual('virtual', g('link', 'relation', 'noCodeSource')),
  Links: virtual('virtual', g('link', 'relation', 'noCodeSource')),
  Lookup: virtual('virtual', g('throughLink', 'relation')),
  Rollup: virtual('virtual', g('throughLink', 'relation')),
  Attachment: physical('text', 'attachment', 'json', { noDefault: true, ...g('unindexable', 'jsonParsed', 'noCodeSource') }),
  Checkbox: physical('boolean', 'boolean', 'checkbox'),
  QrCode: virtual('virtual', { noDefault: true, ...g('codeOfColumn', 'noCodeSource') }),
  Barcode: virtual('virtual', { noDefault: true, ...g('codeOfColumn', 'noCodeSource') }),
  JSON: physical('json', 'json', 'json', g('unindexable', 'formulaText', 'jsonParsed')),
  ID: physical('increments', 'raw', 'number', { auto: true, noDefault: true, ...g('dtCompare', 'pgJsonNumber', 'pgJsonText') }),
  AutoNumber: physical('integer', 'raw', 'number', { auto: true, noDefault: true, ...g('integerKey', 'formulaNumber', 'jsonNumber', 'pgJsonNumber') }),
  CreatedTime: system('created_at', 'datetime', g('formulaDatetime', 'calendarDate')),
  LastModifiedTime: system('updated_at', 'datetime', g('formulaDatetime', 'calendarDate')),
  User: physical('varchar', 'text', 'text', g('formulaText', 'swaggerString', 'userList')),
  Collaborator: physical('varchar', 'text', 'text', g('formulaText', 'swaggerString', 'userList')),
  CreatedBy: system('created_by', 'text', g('formulaText', 'swaggerString', 'userStamp')),
  LastModifiedBy: system('updated_by', 'text', g('formulaText', 'swaggerString', 'userStamp')),
  Formula: virtual('virtual', g('noLookup')),
  Button: virtual('virtual', { noDefault: true, ...g('noCodeSource') }),
  GeoData: physical('text', 'geoData', 'text', g('unindexable', 'formulaText', 'swaggerString')),
  Geometry: physical('varchar', 'text', 'text', g('swaggerString')),
  AI: physical('text', 'raw', 'text', g('unindexable', 'swaggerString')),
  UUID: physical('uuid', 'uuid', 'text', { auto: true, ...g('primaryValue', 'formulaText', 'pgJsonText') }),
  // Internal uidts: never created by a client, met in metadata (link keys, introspected tables).
  Count: { kind: 'virtual', value: 'none', compare: 'virtual', creatable: false, groups: ['formulaNumber'] },
  ForeignKey: { kind: 'physical', value: 'raw', compare: 'number', creatable: false, groups: ['relation', 'dtCompare', 'noLookup'] },
  SpecificDBType: { kind: 'physical', value: 'text', compare: 'text', creatable: false },
} as const satisfies Record<string, UidtEntry>;

/** A uidt of the catalogue. */
export type Uidt = keyof typeof UIDT_CATALOGUE;

const CATALOGUE: Record<string, UidtEntry | undefined> = UIDT_CATALOGUE;
/**
 * The same as a Map: looked up per column of every row written (coercion, auto
 * columns), where `hasOwnProperty` plus a keyed load on the large literal took
 * 8 % of a bulk insert's CPU. Own keys only, so `constructor` or `__proto__`
 * are unknown uidts, as before.
 */
const ENTRIES = new Map<string, UidtEntry>(Object.entries(UIDT_CATALOGUE));

/** The catalogue entry of a uidt, or undefined for one it does not know. */
export function uidtEntry(uidt: string): UidtEntry | undefined {
  return ENTRIES.get(uidt);
}

/** Every uidt a client may create (the spec's list), in the spec's order. */
export const CREATABLE_UIDTS: readonly string[] = Object.entries(CATALOGUE).filter(([, e]) => e!.creatable).map(([u]) => u);

/** True for uidts with no column of their own (links, lookups, rollups, formulas, buttons…). */
export function isVirtualUidt(uidt: string): boolean {
  return uidtEntry(uidt)?.kind === 'virtual';
}

/** The system column a system uidt (CreatedTime…) reads, or undefined. */
export function systemColumnOf(uidt: string): string | undefined {
  return uidtEntry(uidt)?.systemColumn;
}

/** True for uidts the service maintains (a client write is refused). */
export function isAutoUidt(uidt: string): boolean {
  return uidtEntry(uidt)?.auto === true;
}

/** The value rule of a uidt; unknown uidts (external tables) trust primitives. */
export function valueRuleOf(uidt: string): ValueRule {
  return uidtEntry(uidt)?.value ?? 'raw';
}

const GROUP_MEMBERS = new Map<UidtGroup, Set<string>>();
for (const [uidt, entry] of ENTRIES) {
  for (const group of entry.groups ?? []) GROUP_MEMBERS.set(group, (GROUP_MEMBERS.get(group) ?? new Set()).add(uidt));
}

/** The uidts of a group, in catalogue order (for SQL `IN` lists). */
export function uidtsIn(group: UidtGroup): readonly string[] {
  return [...(GROUP_MEMBERS.get(group) ?? [])];
}

function inGroup(group: UidtGroup): (uidt: string) => boolean {
  const members = GROUP_MEMBERS.get(group) ?? new Set<string>();
  return (uidt) => members.has(uidt);
}

/** Group `link` (LinkToAnotherRecord, Links); see {@link UidtGroup} for each group's members and use. */
export const isLinkUidt = inGroup('link');
/** Group `throughLink` (Lookup, Rollup). */
export const isThroughLinkUidt = inGroup('throughLink');
/** Group `relation` (links, lookups, rollups and link keys). */
export const isRelationUidt = inGroup('relation');
/** Group `select` (SingleSelect, MultiSelect). */
export const isSelectUidt = inGroup('select');
/** Group `dtCompare` (ID, ForeignKey). */
export const isDtCompareUidt = inGroup('dtCompare');
/** Group `noLookup` (Formula, ForeignKey). */
export const isNoLookupUidt = inGroup('noLookup');
/** Group `primaryValue`. */
export const isPrimaryValueUidt = inGroup('primaryValue');
/** Group `unindexable`. */
export const isUnindexableUidt = inGroup('unindexable');
/** Group `scaled` (Decimal, Currency, Duration). */
export const isScaledUidt = inGroup('scaled');
/** Group `integerKey` (Number, AutoNumber). */
export const isIntegerKeyUidt = inGroup('integerKey');
/** Group `formulaNumber`. */
export const isFormulaNumberUidt = inGroup('formulaNumber');
/** Group `formulaText`. */
export const isFormulaTextUidt = inGroup('formulaText');
/** Group `formulaDatetime` (DateTime, CreatedTime, LastModifiedTime). */
export const isFormulaDatetimeUidt = inGroup('formulaDatetime');
/** Group `swaggerString`. */
export const isSwaggerStringUidt = inGroup('swaggerString');
/** Group `jsonNumber`. */
export const isJsonNumberUidt = inGroup('jsonNumber');
/** Group `jsonParsed` (Attachment, JSON). */
export const isJsonParsedUidt = inGroup('jsonParsed');
/** Group `pgJsonNumber`. */
export const isPgJsonNumberUidt = inGroup('pgJsonNumber');
/** Group `pgJsonText`. */
export const isPgJsonTextUidt = inGroup('pgJsonText');
/** Group `calendarDate` (Date, DateTime, CreatedTime, LastModifiedTime). */
export const isCalendarDateUidt = inGroup('calendarDate');
/** Group `userStamp` (CreatedBy, LastModifiedBy). */
export const isUserStampUidt = inGroup('userStamp');
/** Group `userList` (User, Collaborator). */
export const isUserListUidt = inGroup('userList');
/** Group `codeOfColumn` (QrCode, Barcode). */
export const isCodeOfColumnUidt = inGroup('codeOfColumn');
/** Group `noCodeSource`: what a QrCode or Barcode may not show. */
export const isNoCodeSourceUidt = inGroup('noCodeSource');
