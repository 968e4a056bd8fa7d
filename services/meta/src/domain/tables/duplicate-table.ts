import { z } from 'zod';
import type { MetaPorts } from '../../ports';
import { findSource } from '../../repositories/source.repository';
import type { BaseInScope } from '../scopes/meta-scopes';
import type { MoreScopes } from '../scopes/more-scopes';
import { tableNotFound, type TableScope } from '../scopes/table-scope';
import { copyTable } from './copy-table';
import { duplicateSchema } from '@tabula/contracts';

/**
 * Copies a table inside its base; returns `{id, name}` of the copy. The guard
 * authorized the base; the table needs the same permission in its own base
 * (its 404 for a caller who may not see it, 403 for a weaker role) and must be
 * the base's own: another base's table answers as missing.
 */
export async function duplicateTable(ports: MetaPorts, scope: BaseInScope, more: MoreScopes, tableId: string, input: z.infer<typeof duplicateSchema>) {
  const { value: base, principal } = scope;
  const { value: from } = await more.same<TableScope>('table', tableId);
  if (from.base.id !== base.id) throw tableNotFound(tableId);
  const source = (await findSource(ports.db, from.table.source_id))!;
  const copy = await copyTable(ports, principal, from, { baseId: base.id, source }, input.title ?? `${from.table.title} copy`, input.options);
  return { id: copy.id, name: copy.title };
}
