import type { Dialect, PhysicalType, TypeMap } from './dialect';
import { pgTypes } from './pg.types';
import { mysqlTypes } from './mysql.types';
import { sqliteTypes } from './sqlite.types';

/** Every uidt of the spec. */
export const ALL_UIDTS = [
  'SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber',
  'Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating',
  'Date', 'DateTime', 'Time', 'Year', 'SingleSelect', 'MultiSelect',
  'LinkToAnotherRecord', 'Links', 'Lookup', 'Rollup',
  'Attachment', 'Checkbox', 'QrCode', 'Barcode', 'JSON',
  'ID', 'AutoNumber', 'CreatedTime', 'LastModifiedTime',
  'User', 'Collaborator', 'CreatedBy', 'LastModifiedBy', 'Formula',
  'Button', 'GeoData', 'Geometry', 'AI', 'UUID',
] as const;

/** Types refused as not yet supported (none left). */
export const UNSUPPORTED_UIDTS = new Set<string>();

/** Virtual types: metadata only, no physical column of their own (a link's foreign key is a column of its own). */
export const VIRTUAL_UIDTS = new Set(['QrCode', 'Barcode', 'Button', 'Formula', 'LinkToAnotherRecord', 'Links', 'Lookup', 'Rollup']);

/** Types that point at a system column instead of having their own. */
export const SYSTEM_POINTER: Record<string, string> = {
  CreatedTime: 'created_at', LastModifiedTime: 'updated_at', CreatedBy: 'created_by', LastModifiedBy: 'updated_by',
};

const maps: Record<Dialect, TypeMap> = { pg: pgTypes, mysql2: mysqlTypes, sqlite3: sqliteTypes };

/** The physical type of a uidt on a dialect, or undefined for virtual ones. */
export function physicalTypeOf(dialect: Dialect, uidt: string): PhysicalType | undefined {
  return maps[dialect][uidt];
}

/** True when the uidt has a physical column of its own. */
export function isPhysical(uidt: string): boolean {
  return !VIRTUAL_UIDTS.has(uidt) && !SYSTEM_POINTER[uidt] && !UNSUPPORTED_UIDTS.has(uidt);
}
