import { withOutbox } from '@tabula/events';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { clearPrimaryValue, updateColumn } from '../../repositories/column.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { isVirtual } from '../../ddl/uidt';
import type { ColumnInScope } from '../scopes/meta-scopes';

/** 400 unless the column may be a table's display value (not a system or virtual column). */
export function assertCanBePrimary(column: Pick<ColumnInScope['value']['column'], 'system' | 'uidt' | 'title'>): void {
  if (column.system || isVirtual(column.uidt)) throw errors.badRequest(`Column '${column.title}' cannot be the primary value`);
}

/** Makes a column the table's display value. */
export async function setPrimaryColumn(ports: MetaPorts, scope: ColumnInScope) {
  const { value: { column }, principal } = scope;
  assertCanBePrimary(column);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await clearPrimaryValue(trx, column.fk_model_id);
    await updateColumn(trx, column.id, { pv: true });
    await enqueueColumnEvent(trx, 'updated', column, principal);
  });
  return { success: true };
}
