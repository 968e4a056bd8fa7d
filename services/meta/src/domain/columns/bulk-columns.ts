import { z } from 'zod';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { inSourceAndMetaTransaction } from '../../sources/source-transaction';
import { findColumn, listColumns } from '../../repositories/column.repository';
import { presentColumn } from '../../presenters/column.presenter';
import type { TableInScope } from '../scopes/meta-scopes';
import type { MoreScopes } from '../scopes/more-scopes';
import { columnFieldsSchema, columnPatchSchema } from './column-input';
import { addColumnIn, assertLinkTargetVisible } from './add-column';
import { changeColumnIn } from './update-column';
import { dropColumnIn } from './delete-column';
import { columnsHashOf } from './column-reads';
import { bulkColumnsSchema } from '@tabula/contracts';
import { lockTable } from '../../repositories/table.repository';

/**
 * Applies add/update/delete ops in one transaction, guarded by the columns
 * hash: the table's metadata row is locked, the hash re-computed, and a stale
 * hash is a 409 with nothing applied.
 */
export async function bulkColumns(ports: MetaPorts, scope: TableInScope, more: MoreScopes, input: z.infer<typeof bulkColumnsSchema>) {
  const { value: { table, handle }, principal } = scope;
  for (const { op, column } of input.ops) if (op === 'add') await assertLinkTargetVisible(more, column);
  await inSourceAndMetaTransaction(ports, handle, async (ddl, trx) => {
    await lockTable(trx, table.id);
    if ((await columnsHashOf(trx, table.id)) !== input.hash) {
      throw errors.conflict('ERR_STALE_COLUMNS_HASH', 'The columns changed since the hash was read; reload and retry');
    }
    for (const [i, { op, column }] of input.ops.entries()) {
      const at = (msg: string) => errors.badRequest(`ops[${i}]: ${msg}`);
      if (op === 'add') {
        const parsed = columnFieldsSchema.safeParse(column);
        if (!parsed.success) throw at(parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; '));
        await addColumnIn(ddl, trx, table, parsed.data, principal);
        continue;
      }
      const current = column.id ? await findColumn(trx, column.id) : undefined;
      if (!current || current.fk_model_id !== table.id) throw errors.notFound('ERR_COLUMN_NOT_FOUND', `ops[${i}]: column '${column.id}' not found`);
      if (op === 'delete') await dropColumnIn(ddl, trx, table.table_name, current, principal);
      else await changeColumnIn(ddl, trx, table, current, columnPatchSchema.parse(column), principal);
    }
  });
  const columns = await listColumns(ports.db, table.id);
  return { failedOps: [], columns: columns.map(presentColumn), hash: await columnsHashOf(ports.db, table.id) };
}
