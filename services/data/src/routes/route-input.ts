import type { TableRef } from '../domain/table-access';

/** The table a route names, from its validated path parameters. */
export function tableRefOf(params: { baseName: string; tableName: string; viewName?: string }): TableRef {
  return { baseName: params.baseName, tableName: params.tableName, viewName: params.viewName };
}
