import Handlebars from 'handlebars';

const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));

/** Throws Handlebars' parse error for a template with bad syntax. */
export function checkTemplate(template: string): void {
  hbs.parse(template);
}

/** Renders a template without HTML escaping. */
export function renderTemplate(template: string, context: object): string {
  if (!template.includes('{{')) return template;
  return hbs.compile(template, { noEscape: true, strict: false })(context);
}

/** Every string leaf of a JSON value, rendered. */
export function renderLeaves(value: unknown, context: object): unknown {
  if (typeof value === 'string') return renderTemplate(value, context);
  if (Array.isArray(value)) return value.map((v) => renderLeaves(v, context));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderLeaves(v, context)]));
  }
  return value;
}

/** Every string leaf of a JSON value (to check them all at create time). */
export function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/**
 * The template context (compat-notes "Hooks"): `data` (and `event`) is the
 * payload, with its inner `data` fields also reachable on it directly but
 * non-enumerable, so `{{ json data }}` is exactly the payload as sent.
 */
export function templateContext(payload: unknown, user: unknown): Record<string, unknown> {
  const data = Array.isArray(payload) ? [...payload] : { ...(payload as object) };
  const inner = (payload as { data?: unknown })?.data;
  if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
    for (const [key, value] of Object.entries(inner)) {
      if (!(key in data)) Object.defineProperty(data, key, { value, enumerable: false });
    }
  }
  return { data, event: data, user: user ?? {} };
}
