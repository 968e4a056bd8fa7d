import type { HooksPorts } from '../ports';
import type { HookRow } from '../repositories/hook.repository';
import { webhookHeaders } from '../domain/hook-signature';
import { renderRequest, type RenderedRequest, type UrlNotification } from './render-request';
import { sendRequest, type AttemptResult } from './send-request';

/** A request and what came back. */
export interface Execution {
  request?: RenderedRequest;
  result: AttemptResult;
}

/**
 * Renders, signs and sends one call of a hook (webhook-id = `messageId`, stable
 * across retries of one delivery). Rendering failures are results, not throws.
 */
export async function executeHook(ports: HooksPorts, hook: HookRow, messageId: string, payload: unknown, user: unknown): Promise<Execution> {
  let request: RenderedRequest;
  try {
    request = renderRequest((hook.notification.payload ?? {}) as UrlNotification, payload, user);
  } catch (err) {
    return { result: { ok: false, error: `Cannot render request: ${(err as Error).message}`, executionTime: 0 } };
  }
  if (!/^https?:$/.test(new URL(request.url).protocol)) {
    return { request, result: { ok: false, error: 'URL scheme not allowed', executionTime: 0 } };
  }
  const secret = ports.box.open<string>(hook.secret_sealed);
  request.headers = { ...request.headers, ...webhookHeaders(secret, messageId, request.body) };
  return { request, result: await sendRequest(ports.agent, request, hook.timeout) };
}
