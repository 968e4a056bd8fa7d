import Handlebars from 'handlebars';

const BRACES_HELPER = '__tabula_rbraces';
const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));
hbs.registerHelper(BRACES_HELPER, (count: unknown) => '}'.repeat(Number(count)));

/** Where a mustache opened at `open` closes, and how long its closing delimiter is. */
function closingOf(template: string, open: number): { end: number; length: number } {
  const close = template.startsWith('{{{{', open) ? '}}}}'
    : template.startsWith('{{{', open) ? '}}}'
      : template.startsWith('{{!--', open) ? '--}}' : '}}';
  return { end: template.indexOf(close, open + 2), length: close.length };
}

/**
 * Makes braces that directly follow a mustache literal text. A hook body is
 * JSON, so `{"rows":{{ json data.rows }}}` (and `{{{ … }}}}`) is the natural
 * way to write it, but Handlebars' lexer reads the `}}}` as the close of a
 * triple-stash (and `}}}}` as the close of a raw block) and refuses the
 * template. Each run of braces after a mustache's own closing delimiter is
 * moved into a helper call that prints them, so the mustache closes where its
 * author meant it to.
 */
export function literalClosingBraces(template: string): string {
  let out = '';
  let from = 0;
  for (let open = template.indexOf('{{'); open >= 0; open = template.indexOf('{{', from)) {
    if (template[open - 1] === '\\') {
      out += template.slice(from, open + 2);
      from = open + 2;
      continue;
    }
    const { end, length } = closingOf(template, open);
    if (end < 0) break; // unterminated: Handlebars reports it
    const after = end + length;
    let extra = 0;
    while (template[after + extra] === '}') extra += 1;
    out += template.slice(from, after) + (extra ? `{{${BRACES_HELPER} ${extra}}}` : '');
    from = after + extra;
  }
  return out + template.slice(from);
}

/** Throws Handlebars' parse error for a template with bad syntax. */
export function checkTemplate(template: string): void {
  hbs.parse(literalClosingBraces(template));
}

/** Renders a template without HTML escaping. */
export function renderTemplate(template: string, context: object): string {
  if (!template.includes('{{')) return template;
  return hbs.compile(literalClosingBraces(template), { noEscape: true, strict: false })(context);
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
