import type { Middleware } from 'koa';
import { AppError, appError } from './app-error';

/** The 400 every NUL byte in client input answers. */
function nulRefused(field: string): AppError {
  return appError('ERR_INVALID_REQUEST_BODY', `Field '${field}' contains a NUL byte (U+0000), which is not allowed`, { field });
}

/**
 * The path (`a.b[2].c`) of the first string (key or value) holding U+0000 in
 * a parsed JSON body, found without recursion; undefined when there is none.
 */
export function nulPathOf(body: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || '(body)';
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push({ value: item, path: at });
      }
    }
  }
  return undefined;
}

/**
 * Refuses U+0000 anywhere in client input with 400 naming the field: no
 * supported database stores it in text (PostgreSQL answers SQLSTATE 22021 /
 * 22P05), so it is refused everywhere alike — record values, `where`
 * values, titles, meta, options, defaults — never stripped (README "Input rules").
 * Runs after the JSON body is parsed; JSON can carry NUL only as `\u0000`, so
 * bodies without that escape are not walked.
 */
export function nulGuard(): Middleware {
  // Not async: a refusal thrown here rejects the caller's `next()` as a rejection would (one promise fewer per request).
  return (ctx, next) => {
    for (const [name, value] of Object.entries(ctx.query)) {
      if ([value ?? ''].flat().some((v) => v.includes('\u0000'))) throw nulRefused(name);
    }
    if (ctx.path.includes('\u0000') || safeDecode(ctx.path).includes('\u0000')) throw nulRefused('(path)');
    const raw = ctx.state.rawBodyHasNul as boolean | undefined;
    if (raw !== false && ctx.request.body !== undefined) {
      const path = nulPathOf(ctx.request.body);
      if (path) throw nulRefused(path);
    }
    return next();
  };
}

function safeDecode(text: string): string {
  try { return decodeURIComponent(text); } catch { return text; }
}
