import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { appError } from '@tabula/http';
import type { IntegrationsPorts } from '../../ports';
import { allowedAddress } from '../../adapters/host-policy';
import { putStoreRecord } from '../../repositories/store.repository';

/** Body of `chat` (OpenAI chat-completions messages). */
const chatBody = z.object({
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string().max(100_000) })).min(1, 'messages is required').max(200),
  model: z.string().min(1).max(128).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(100_000).optional(),
});

const completion = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ role: z.string(), content: z.string().nullable() }), finish_reason: z.string().nullish() })).min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }).partial().optional(),
});

async function post(ports: IntegrationsPorts, url: string, apiKey: unknown, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof apiKey === 'string' && apiKey) headers.authorization = `Bearer ${apiKey}`;
  const timeout = ports.config.SVC_INTEGRATIONS_AI_TIMEOUT_MS;
  try {
    return await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'error', signal: AbortSignal.timeout(timeout) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw appError('ERR_INTEGRATION_TIMEOUT', `The AI endpoint did not answer within ${timeout} ms`);
    throw appError('ERR_INTEGRATION_CONNECTION', 'Cannot reach the AI endpoint');
  }
}

/**
 * `chat`: one chat completion from the configured OpenAI-compatible endpoint.
 * The host follows the integrations network policy; the call's token usage is
 * recorded in the integration's store (`usage:<time>:<id>`), so `sum` over
 * `total_tokens` is the integration's consumption.
 */
export async function chat(ports: IntegrationsPorts, integrationId: string, config: Record<string, unknown>, raw: Record<string, unknown>) {
  const body = chatBody.parse(raw);
  const base = new URL(String(config.baseURL));
  await allowedAddress(base.hostname, ports.config.SVC_ALLOW_LOCAL_SOURCES);
  const model = body.model ?? String(config.model);
  const res = await post(ports, `${base.toString().replace(/\/$/, '')}/chat/completions`, config.apiKey, { ...body, model });
  if (!res.ok) throw appError('ERR_INTEGRATION_UPSTREAM', `The AI endpoint answered ${res.status}`);
  const parsed = completion.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw appError('ERR_INTEGRATION_UPSTREAM', 'The AI endpoint answered with an unexpected body');
  const usage = {
    prompt_tokens: parsed.data.usage?.prompt_tokens ?? 0, completion_tokens: parsed.data.usage?.completion_tokens ?? 0,
    total_tokens: parsed.data.usage?.total_tokens ?? 0,
  };
  const at = new Date().toISOString();
  await putStoreRecord(ports.db, integrationId, `usage:${at}:${randomUUID().slice(0, 8)}`, { ...usage, model: parsed.data.model ?? model, at });
  const choice = parsed.data.choices[0];
  return { message: choice.message, finish_reason: choice.finish_reason ?? null, model: parsed.data.model ?? model, usage };
}
