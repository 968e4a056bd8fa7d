import { z } from 'zod';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { findSource } from '../../repositories/source.repository';
import { requireBase, requireTable } from '../access';
import { copyTable } from './copy-table';
import { duplicateSchema } from '@tabula/contracts';

/** Copies a table inside its base; returns `{id, name}` of the copy. */
export async function duplicateTable(ports: MetaPorts, principal: Principal, baseId: string, tableId: string, input: z.infer<typeof duplicateSchema>) {
  const base = await requireBase(ports, principal, baseId, 'schema.write');
  const scope = await requireTable(ports, principal, tableId, 'schema.write');
  if (scope.base.id !== base.id) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
  const source = (await findSource(ports.db, scope.table.source_id))!;
  const copy = await copyTable(ports, principal, scope, { baseId: base.id, source }, input.title ?? `${scope.table.title} copy`, input.options);
  return { id: copy.id, name: copy.title };
}
