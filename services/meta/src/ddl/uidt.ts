import type { Knex } from 'knex';
import { CREATABLE_UIDTS, isVirtualUidt, systemColumnOf, uidtEntry, type Storage } from '@tabula/query';
import type { Dialect, PhysicalType } from './dialect';

/** Every uidt of the spec (from the uidt catalogue of libs/query). */
export const ALL_UIDTS: readonly string[] = CREATABLE_UIDTS;

/** Types refused as not yet supported (none left). */
export const UNSUPPORTED_UIDTS = new Set<string>();

/** True for virtual types: metadata only, no physical column of their own (a link's foreign key is a column of its own). */
export const isVirtual = isVirtualUidt;

/** The system column a type points at instead of having its own (CreatedTime → created_at…), if any. */
export const systemPointer = systemColumnOf;

type Builder = (t: Knex.CreateTableBuilder, name: string, dialect: Dialect) => Knex.ColumnBuilder;

/** One knex call per storage family of the catalogue. */
const BUILDERS: Record<Storage, Builder> = {
  text: (t, n) => t.text(n),
  varchar: (t, n) => t.string(n, 255),
  // PostgreSQL: numeric without a scale keeps every digit given (NocoDB's Decimal); the others need one.
  decimal: (t, n, d) => (d === 'pg' ? t.decimal(n, null as unknown as number) : t.decimal(n, 38, 10)),
  bigint: (t, n) => t.bigInteger(n),
  double: (t, n) => t.double(n),
  smallint: (t, n) => t.smallint(n),
  integer: (t, n) => t.integer(n),
  date: (t, n) => t.date(n),
  datetime: (t, n, d) => (d === 'pg' ? t.timestamp(n, { useTz: false }) : t.datetime(n)),
  time: (t, n) => t.time(n),
  boolean: (t, n) => t.boolean(n),
  json: (t, n) => t.json(n),
  increments: (t, n) => t.increments(n, { primaryKey: true }),
  uuid: (t, n) => t.uuid(n),
};

/** Defaults a type always carries (compat-notes: Rating 0, Checkbox false, UUID generated on PostgreSQL). */
function implicitDefaultOf(dialect: Dialect, uidt: string): PhysicalType['implicitDefault'] {
  if (uidt === 'Rating') return () => 0;
  if (uidt === 'Checkbox') return () => false;
  if (uidt === 'UUID' && dialect === 'pg') return (k) => k.raw('gen_random_uuid()');
  return undefined;
}

/** The physical type of a uidt on a dialect, or undefined for virtual, system and internal ones. */
export function physicalTypeOf(dialect: Dialect, uidt: string): PhysicalType | undefined {
  const entry = uidtEntry(uidt);
  if (!entry?.storage || !entry.types) return undefined;
  const storage = entry.storage;
  const dt = entry.types[dialect === 'mysql2' ? 'mysql' : dialect === 'sqlite3' ? 'sqlite' : 'pg'];
  const implicitDefault = implicitDefaultOf(dialect, uidt);
  return { dt, build: (t, n) => BUILDERS[storage](t, n, dialect), ...(implicitDefault ? { implicitDefault } : {}) };
}

/** True when the uidt has a physical column of its own. */
export function isPhysical(uidt: string): boolean {
  return !isVirtual(uidt) && !systemPointer(uidt) && !UNSUPPORTED_UIDTS.has(uidt);
}
