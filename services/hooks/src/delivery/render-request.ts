import { renderLeaves, renderTemplate, templateContext } from '../domain/template';

/** A header or query parameter of a URL notification. */
export interface NameValue {
  name?: string;
  value?: string;
  enabled?: boolean;
}

/** The URL notification's payload (compat-notes "Hooks"). */
export interface UrlNotification {
  method?: string;
  path?: string;
  body?: unknown;
  headers?: NameValue[];
  parameters?: NameValue[];
}

/** A request ready to send. */
export interface RenderedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const enabled = (items: NameValue[] | undefined): NameValue[] => (items ?? []).filter((i) => i.enabled !== false && i.name);

/**
 * Renders the notification with the payload: path, header values, query
 * parameters and the body's string leaves go through Handlebars; an empty body
 * sends the payload as JSON.
 */
export function renderRequest(notification: UrlNotification, payload: unknown, user: unknown): RenderedRequest {
  const context = templateContext(payload, user);
  const url = new URL(renderTemplate(notification.path ?? '', context));
  for (const p of enabled(notification.parameters)) url.searchParams.append(p.name!, renderTemplate(p.value ?? '', context));
  const headers: Record<string, string> = {};
  for (const h of enabled(notification.headers)) headers[h.name!.toLowerCase()] = renderTemplate(h.value ?? '', context);
  const raw = notification.body;
  let body: string;
  if (raw === undefined || raw === null || raw === '') body = JSON.stringify(payload);
  else if (typeof raw === 'string') body = renderTemplate(raw, context);
  else body = JSON.stringify(renderLeaves(raw, context));
  headers['content-type'] ??= 'application/json';
  return { method: (notification.method ?? 'POST').toUpperCase(), url: url.toString(), headers, body };
}
