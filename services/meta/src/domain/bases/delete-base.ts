import { withOutbox } from '@tabula/events';
import type { MetaPorts } from '../../ports';
import { updateBase } from '../../repositories/base.repository';
import { listSources } from '../../repositories/source.repository';
import { enqueueBaseEvent } from '../../events/meta-event.producer';
import type { BaseInScope } from '../scopes/meta-scopes';

/**
 * Soft-deletes a base (hidden from lists, reads and the internal API); its
 * physical schema stays so the base can be restored by an operator. External
 * pools are released.
 */
export async function deleteBase(ports: MetaPorts, scope: BaseInScope): Promise<boolean> {
  const { value: base, principal } = scope;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateBase(trx, base.id, { deleted: true });
    await enqueueBaseEvent(trx, 'deleted', base, principal);
  });
  for (const s of await listSources(ports.db, base.id)) if (!s.is_meta) await ports.sources.release(s.id);
  ports.baseAccess.invalidate(base.id);
  return true;
}
