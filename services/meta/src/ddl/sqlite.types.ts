import type { Knex } from 'knex';
import type { TypeMap } from './dialect';

const text = { dt: 'text', build: (t: Knex.CreateTableBuilder, n: string) => t.text(n) };
const varchar = { dt: 'varchar', build: (t: Knex.CreateTableBuilder, n: string) => t.string(n, 255) };
const decimal = { dt: 'decimal', build: (t: Knex.CreateTableBuilder, n: string) => t.decimal(n, 38, 2) };

/** uidt → SQLite declared type (SQLite keeps affinities; the declared name drives introspection). */
export const sqliteTypes: TypeMap = {
  SingleLineText: text, LongText: text, URL: text, SingleSelect: text, MultiSelect: text, Attachment: text, GeoData: text, AI: text,
  Email: varchar, PhoneNumber: varchar, User: varchar, Collaborator: varchar, Geometry: varchar,
  Number: { dt: 'bigint', build: (t, n) => t.bigInteger(n) },
  Decimal: decimal, Currency: decimal, Duration: decimal,
  Percent: { dt: 'double', build: (t, n) => t.double(n) },
  Rating: { dt: 'smallint', build: (t, n) => t.smallint(n), implicitDefault: () => 0 },
  Date: { dt: 'date', build: (t, n) => t.date(n) },
  DateTime: { dt: 'datetime', build: (t, n) => t.datetime(n) },
  Time: { dt: 'time', build: (t, n) => t.time(n) },
  Year: { dt: 'integer', build: (t, n) => t.integer(n) },
  Checkbox: { dt: 'boolean', build: (t, n) => t.boolean(n), implicitDefault: () => false },
  JSON: { dt: 'json', build: (t, n) => t.json(n) },
  ID: { dt: 'integer', build: (t, n) => t.increments(n, { primaryKey: true }) },
  AutoNumber: { dt: 'integer', build: (t, n) => t.integer(n) },
  UUID: { dt: 'char', build: (t, n) => t.uuid(n) },
};
