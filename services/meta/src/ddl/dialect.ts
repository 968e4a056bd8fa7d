import type { Knex } from 'knex';
import type { SourceHandle } from '@tabula/db';

/** The dialects and handles of data sources live in the shared source registry of libs/db. */
export type { Dialect, SourceHandle } from '@tabula/db';

/** The schema builder of a source, scoped to its schema when it has one. */
export function schemaBuilder(source: SourceHandle, db: Knex = source.knex): Knex.SchemaBuilder {
  return source.schema ? db.schema.withSchema(source.schema) : db.schema;
}

/** A query builder on a user table of the source. */
export function userTable(source: SourceHandle, tableName: string, db: Knex = source.knex): Knex.QueryBuilder {
  return source.schema ? db.withSchema(source.schema).from(tableName) : db.from(tableName);
}

/** Builds one physical column inside a create/alter table callback. */
export type ColumnFactory = (t: Knex.CreateTableBuilder, name: string, knex: Knex) => Knex.ColumnBuilder;

/** A physical type: how to build it and the `dt` recorded in metadata. */
export interface PhysicalType {
  dt: string;
  build: ColumnFactory;
  /** A default the type always carries (compat-notes: Rating 0, Checkbox false, UUID generated). */
  implicitDefault?: (knex: Knex) => unknown;
}
