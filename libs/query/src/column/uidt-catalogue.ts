/**
 * The one catalogue of column types (uidts): per uidt, whether it has a column of
 * its own (physical), none (virtual) or points at a system column (system); its
 * storage on PostgreSQL, MySQL/MariaDB and SQLite; the value rule that checks
 * and coerces client values; and how it compares in a filter. Meta's DDL and
 * default checks, data's column roles and value coercion, the query compiler
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

type Extra = Partial<Pick<UidtEntry, 'auto' | 'noDefault'>>;

function physical(storage: Storage, value: ValueRule, compare: CompareKind, extra: Extra = {}, mysql?: Storage): UidtEntry {
  const types = { ...STORAGE_TYPES[storage], ...(mysql ? { mysql: STORAGE_TYPES[mysql].mysql } : {}) };
  return { kind: 'physical', storage, types, value, compare, creatable: true, ...extra };
}

function virtual(compare: CompareKind = 'virtual', extra: Extra = {}): UidtEntry {
  return { kind: 'virtual', value: 'none', compare, creatable: true, ...extra };
}

function system(systemColumn: string, compare: CompareKind): UidtEntry {
  return { kind: 'system', systemColumn, value: 'none', compare, auto: true, noDefault: true, creatable: true };
}

/**
 * Every uidt. Short texts are varchar(255) on MySQL so they can be indexed
 * (TEXT needs a key prefix for UNIQUE); PostgreSQL and SQLite keep them TEXT.
 */
export const UIDT_CATALOGUE = {
  SingleLineText: physical('text', 'text', 'text', {}, 'varchar'),
  LongText: physical('text', 'text', 'text'),
  Email: physical('varchar', 'email', 'text'),
  URL: physical('text', 'url', 'text'),
  PhoneNumber: physical('varchar', 'phone', 'text'),
  Number: physical('bigint', 'integer', 'number'),
  Decimal: physical('decimal', 'decimal', 'number'),
  Currency: physical('decimal', 'decimal', 'number'),
  Percent: physical('double', 'decimal', 'number'),
  Duration: physical('decimal', 'duration', 'number'),
  Rating: physical('smallint', 'rating', 'number'),
  Date: physical('date', 'date', 'date'),
  DateTime: physical('datetime', 'datetime', 'datetime'),
  Time: physical('time', 'time', 'time'),
  Year: physical('integer', 'year', 'number'),
  SingleSelect: physical('text', 'singleSelect', 'text', {}, 'varchar'),
  MultiSelect: physical('text', 'multiSelect', 'text'),
  LinkToAnotherRecord: virtual(),
  Links: virtual(),
  Lookup: virtual(),
  Rollup: virtual(),
  Attachment: physical('text', 'attachment', 'json', { noDefault: true }),
  Checkbox: physical('boolean', 'boolean', 'checkbox'),
  QrCode: virtual('virtual', { noDefault: true }),
  Barcode: virtual('virtual', { noDefault: true }),
  JSON: physical('json', 'json', 'json'),
  ID: physical('increments', 'raw', 'number', { auto: true, noDefault: true }),
  AutoNumber: physical('integer', 'raw', 'number', { auto: true, noDefault: true }),
  CreatedTime: system('created_at', 'datetime'),
  LastModifiedTime: system('updated_at', 'datetime'),
  User: physical('varchar', 'text', 'text'),
  Collaborator: physical('varchar', 'raw', 'text'),
  CreatedBy: system('created_by', 'text'),
  LastModifiedBy: system('updated_by', 'text'),
  Formula: virtual(),
  Button: virtual('virtual', { noDefault: true }),
  GeoData: physical('text', 'geoData', 'text'),
  Geometry: physical('varchar', 'text', 'text'),
  AI: physical('text', 'raw', 'text'),
  UUID: physical('uuid', 'uuid', 'text', { auto: true }),
  // Internal uidts: never created by a client, met in metadata (link keys, introspected tables).
  Count: { kind: 'virtual', value: 'none', compare: 'virtual', creatable: false },
  ForeignKey: { kind: 'physical', value: 'raw', compare: 'number', creatable: false },
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
