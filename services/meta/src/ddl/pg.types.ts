import type { Knex } from 'knex';
import type { TypeMap } from './dialect';

const text = { dt: 'text', build: (t: Knex.CreateTableBuilder, n: string) => t.text(n) };
const varchar = { dt: 'character varying', build: (t: Knex.CreateTableBuilder, n: string) => t.string(n, 255) };
const decimal = { dt: 'decimal', build: (t: Knex.CreateTableBuilder, n: string) => t.decimal(n, 38, 2) };

/** uidt → PostgreSQL type, as listed in compat-notes "Tables and columns". */
export const pgTypes: TypeMap = {
  SingleLineText: text, LongText: text, URL: text, SingleSelect: text, MultiSelect: text, Attachment: text, GeoData: text, AI: text,
  Email: varchar, PhoneNumber: varchar, User: varchar, Collaborator: varchar, Geometry: varchar,
  Number: { dt: 'bigint', build: (t, n) => t.bigInteger(n) },
  Decimal: decimal, Currency: decimal, Duration: decimal,
  Percent: { dt: 'double precision', build: (t, n) => t.double(n) },
  Rating: { dt: 'smallint', build: (t, n) => t.smallint(n), implicitDefault: () => 0 },
  Date: { dt: 'date', build: (t, n) => t.date(n) },
  DateTime: { dt: 'timestamp', build: (t, n) => t.timestamp(n, { useTz: false }) },
  Time: { dt: 'time', build: (t, n) => t.time(n) },
  Year: { dt: 'integer', build: (t, n) => t.integer(n) },
  Checkbox: { dt: 'boolean', build: (t, n) => t.boolean(n), implicitDefault: () => false },
  JSON: { dt: 'json', build: (t, n) => t.json(n) },
  ID: { dt: 'integer', build: (t, n) => t.increments(n, { primaryKey: true }) },
  AutoNumber: { dt: 'integer', build: (t, n) => t.integer(n) },
  UUID: { dt: 'uuid', build: (t, n) => t.uuid(n), implicitDefault: (k) => k.raw('gen_random_uuid()') },
};
