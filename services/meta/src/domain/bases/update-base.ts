import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import type { MetaPorts } from '../../ports';
import { updateBase as updateRow, type BaseRow } from '../../repositories/base.repository';
import { enqueueBaseEvent } from '../../events/meta-event.producer';
import type { BaseInScope } from '../scopes/meta-scopes';
import { metaObject } from './create-base';
import { updateBaseSchema } from '@tabula/contracts';

/** Updates a base; answers 1 like the spec. */
export async function updateBase(ports: MetaPorts, scope: BaseInScope, input: z.infer<typeof updateBaseSchema>): Promise<number> {
  const { value: base, principal } = scope;
  const patch: Partial<BaseRow> = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.description !== undefined) patch.description = input.description;
  if (input.color !== undefined) patch.color = input.color;
  if (input.order !== undefined) patch.order = input.order;
  if (input.meta !== undefined) patch.meta = metaObject(input.meta);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateRow(trx, base.id, patch);
    await enqueueBaseEvent(trx, 'updated', { id: base.id, title: patch.title ?? base.title }, principal);
  });
  return 1;
}
