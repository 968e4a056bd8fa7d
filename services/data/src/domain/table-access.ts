import { appError } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { ViewInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { findView } from '../model/table-model';
import type { DataPorts } from '../ports';

/** A table as a route names it: `{baseName}/{tableName}[/views/{viewName}]`. */
export interface TableRef {
  baseName: string;
  tableName: string;
  viewName?: string;
}

/** The resolved table and view of a request. */
export interface OpenTable {
  handle: TableHandle;
  view?: ViewInfo;
}

/** Resolves the table (cached), checks the caller's base role for the action, finds the view. */
export async function openTable(ports: DataPorts, principal: Principal, ref: TableRef, action: 'data.read' | 'data.write'): Promise<OpenTable> {
  const handle = await ports.tables.resolveFor(ports.baseAccess, principal, ref.baseName, ref.tableName);
  await ports.baseAccess.authorizeVisible(principal, handle.baseId, action, () => appError('ERR_BASE_NOT_FOUND', `Base '${ref.baseName}' not found`));
  return { handle, view: ref.viewName ? findView(handle.model, ref.viewName) : undefined };
}
