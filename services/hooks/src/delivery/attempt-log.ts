import type { Knex } from 'knex';
import { newId } from '@tabula/db';
import { insertHookLog, type HookLogRow } from '../repositories/hook-log.repository';
import type { HookRow } from '../repositories/hook.repository';
import type { RenderedRequest } from './render-request';
import type { AttemptResult } from './send-request';

/** What one attempt is logged with. */
export interface AttemptFacts {
  hook: HookRow;
  deliveryId: string | null;
  attempt: number;
  event: string;
  operation: string;
  request?: RenderedRequest;
  result: AttemptResult;
  triggeredBy?: string | null;
  testCall: boolean;
}

function bodyOf(request: RenderedRequest | undefined): unknown {
  if (!request) return null;
  try {
    return JSON.parse(request.body);
  } catch {
    return request.body;
  }
}

/** The log row of one attempt (response truncated by the sender to 10 KB). */
export function attemptLogRow(facts: AttemptFacts): Omit<HookLogRow, 'created_at' | 'updated_at'> {
  const { result } = facts;
  return {
    id: newId('hkl'), fk_hook_id: facts.hook.id, base_id: facts.hook.base_id, fk_model_id: facts.hook.fk_model_id,
    delivery_id: facts.deliveryId, attempt: facts.attempt, type: 'URL', event: facts.event, operation: facts.operation,
    payload: bodyOf(facts.request),
    response: result.status === undefined ? null : { status: result.status, headers: result.headers, data: result.body },
    error_message: result.ok ? null : (result.error ?? 'failed'), execution_time: result.executionTime,
    triggered_by: facts.triggeredBy ?? null, test_call: facts.testCall,
  };
}

/** Logs one attempt. */
export async function logAttempt(db: Knex, facts: AttemptFacts): Promise<void> {
  await insertHookLog(db, attemptLogRow(facts));
}
