import { Query } from 'pg';

/** A pg connection, as far as sending one query goes. */
export interface PgQueryable {
  query(query: Query): unknown;
}

/**
 * Runs one statement on a pg connection as a pg `Query` made from its text
 * (and named afterwards), handed to the client ready-made. pg copies a query
 * given as a config object (`{ name, text, values }`) property by property,
 * through its descriptors, before it builds the Query (`cloneQueryConfig`); a
 * query given as text is not copied. That copy was 3 to 11 µs of main-thread
 * CPU per read by id (`records-serve-profile.ts read --profile`). The Query is
 * the same one pg would build (text, values, name; a named one is parsed once
 * per connection), sent the same way. Used by the prepared statements
 * (prepared.ts) and by knex's own queries (knex-factory.ts).
 */
export function queryAsText(connection: PgQueryable, text: string, values?: unknown[], name?: string): Promise<{ rows: unknown[] }> {
  return new Promise((resolve, reject) => {
    const query: Query & { name?: string } = new Query(text, values, (err, result) => (err ? reject(err) : resolve(result as unknown as { rows: unknown[] })));
    if (name) query.name = name;
    connection.query(query);
  });
}
