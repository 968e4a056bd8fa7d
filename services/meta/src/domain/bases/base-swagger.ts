import { errorBodySchema, jsonSchemaOf, pageInfoSchema } from '@tabula/contracts';
import type { MetaPorts } from '../../ports';
import { listTables } from '../../repositories/table.repository';
import { listColumnsOf } from '../../repositories/column.repository';
import { presentColumn } from '../../presenters/column.presenter';
import { tableSchemas, type SwaggerTable } from '../../presenters/base-swagger.presenter';
import { tablePaths } from '../../presenters/base-swagger.paths';
import type { BaseInScope } from '../scopes/meta-scopes';

/** A name usable as an OpenAPI component and operation id, unique in the document. */
function uniqueNames(titles: string[]): string[] {
  const used = new Set<string>();
  return titles.map((title) => {
    const camel = title.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^[^A-Za-z]+/, '') || 'Table';
    const stem = camel[0].toUpperCase() + camel.slice(1);
    let name = stem;
    for (let i = 2; used.has(name); i++) name = `${stem}${i}`;
    used.add(name);
    return name;
  });
}

/**
 * The base's own OpenAPI 3.1 document (like NocoDB's per-base swagger): every
 * table's records API with a record schema of its real columns and types, so
 * a client can be generated for the user's own data.
 */
export async function baseSwagger(ports: MetaPorts, scope: BaseInScope): Promise<Record<string, unknown>> {
  const base = scope.value;
  const rows = await listTables(ports.db, base.id);
  const columns = await listColumnsOf(ports.db, rows.map((t) => t.id));
  const tables: SwaggerTable[] = rows.map((t) => ({
    id: t.id, title: t.title, columns: columns.filter((c) => c.fk_model_id === t.id).map(presentColumn),
  }));
  const names = uniqueNames(tables.map((t) => t.title));
  const schemas: Record<string, unknown> = { Error: jsonSchemaOf(errorBodySchema, 'output'), PageInfo: jsonSchemaOf(pageInfoSchema, 'output') };
  let paths: Record<string, unknown> = {};
  tables.forEach((table, i) => {
    const { record, request } = tableSchemas(table);
    schemas[`${names[i]}Record`] = record;
    schemas[`${names[i]}Request`] = request;
    paths = { ...paths, ...tablePaths(base.id, table, names[i]) };
  });
  return {
    openapi: '3.1.0',
    info: { title: `${base.title} (Tabula base ${base.id})`, version: '1.0.0', description: `Records API of the tables of base '${base.title}'.` },
    servers: [{ url: '/' }],
    tags: tables.map((t) => ({ name: t.title })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        xcAuth: { type: 'apiKey', in: 'header', name: 'xc-auth' }, xcToken: { type: 'apiKey', in: 'header', name: 'xc-token' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ xcAuth: [] }, { xcToken: [] }, { bearer: [] }],
  };
}
