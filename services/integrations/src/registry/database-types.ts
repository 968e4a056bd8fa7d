import { z } from 'zod';
import type { SubTypeDefinition } from './type-definition';

const port = z.coerce.number().int().min(1).max(65535);
const ssl = z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional().describe('TLS settings (true or driver options)');

/** host/port/user/password/database, as knex names them. */
function serverConnection(defaultPort: number) {
  return z.object({
    host: z.string().trim().min(1, 'host is required').max(255).describe('Host name or address'),
    port: port.default(defaultPort).describe('Port'),
    user: z.string().min(1, 'user is required').max(128).describe('User name'),
    password: z.string().max(1024).optional().describe('Password (secret)'),
    database: z.string().trim().min(1, 'database is required').max(128).describe('Database name'),
    ssl,
  }).passthrough();
}

function serverConfig(client: string, defaultPort: number) {
  return z.object({
    client: z.literal(client).optional(),
    connection: serverConnection(defaultPort),
    searchPath: z.array(z.string().max(63)).max(10).optional().describe('Schemas (pg)'),
  }).passthrough();
}

const QUERY_ENDPOINTS = ['testConnection', 'listTables', 'listColumns'];

function server(subType: string, title: string, defaultPort: number, endpoints: string[]): SubTypeDefinition {
  return {
    type: 'database', sub_type: subType, title, icon: subType, schema: serverConfig(subType, defaultPort),
    secret_fields: ['connection.password'], endpoints, dbInfo: ['connection.host', 'connection.port', 'connection.database'],
  };
}

/**
 * Database sub-types (spec "Integration"). pg, mysql2 and sqlite3 have drivers in
 * Tabula and answer the query endpoints; the others are stored and validated,
 * and their endpoints answer 404 until a driver is added.
 */
export const databaseTypes: SubTypeDefinition[] = [
  server('mysql2', 'MySQL', 3306, QUERY_ENDPOINTS),
  server('pg', 'PostgreSQL', 5432, QUERY_ENDPOINTS),
  {
    type: 'database', sub_type: 'sqlite3', title: 'SQLite', icon: 'sqlite3', secret_fields: [], endpoints: QUERY_ENDPOINTS,
    dbInfo: ['connection.filename'],
    schema: z.object({
      client: z.literal('sqlite3').optional(),
      connection: z.object({ filename: z.string().trim().min(1, 'filename is required').max(1024).describe('File under DATA_DIR/sqlite') }).passthrough(),
    }).passthrough(),
  },
  server('mssql', 'Microsoft SQL Server', 1433, []),
  server('oracledb', 'Oracle', 1521, []),
  {
    type: 'database', sub_type: 'snowflake', title: 'Snowflake', icon: 'snowflake', endpoints: [],
    secret_fields: ['connection.password'], dbInfo: ['connection.account', 'connection.database', 'connection.warehouse'],
    schema: z.object({
      client: z.literal('snowflake').optional(),
      connection: z.object({
        account: z.string().min(1, 'account is required').max(255), username: z.string().min(1, 'username is required').max(255),
        password: z.string().max(1024).optional(), warehouse: z.string().max(255).optional(),
        database: z.string().min(1, 'database is required').max(255), schema: z.string().max(255).optional(),
      }).passthrough(),
    }).passthrough(),
  },
  {
    type: 'database', sub_type: 'databricks', title: 'Databricks', icon: 'databricks', endpoints: [],
    secret_fields: ['connection.token'], dbInfo: ['connection.host', 'connection.catalog', 'connection.schema'],
    schema: z.object({
      client: z.literal('databricks').optional(),
      connection: z.object({
        host: z.string().min(1, 'host is required').max(255), path: z.string().min(1, 'path is required').max(1024),
        token: z.string().max(4096).optional(), catalog: z.string().max(255).optional(), schema: z.string().max(255).optional(),
      }).passthrough(),
    }).passthrough(),
  },
];
