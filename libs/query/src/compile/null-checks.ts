import type { IsArgument } from '../filter/filter.types';
import type { ConditionContext } from './compile-context';
import { Fragment, sql } from './sql-fragment';

const JSON_BLANKS = ['', '[]', '{}', 'null'];

/** Blank: NULL, and for text the empty string, for JSON/attachments an empty document. */
export function blank(ctx: ConditionContext): Fragment {
  const { col, kind, d } = ctx;
  if (kind === 'text') return sql`${col} IS NULL OR ${col} = ${''}`;
  if (kind === 'json') {
    return sql`${col} IS NULL OR ${d.textOf(col)} IN (${JSON_BLANKS[0]}, ${JSON_BLANKS[1]}, ${JSON_BLANKS[2]}, ${JSON_BLANKS[3]})`;
  }
  return sql`${col} IS NULL`;
}

/** Not blank: the exact complement of {@link blank}. */
export function notBlank(ctx: ConditionContext): Fragment {
  return sql`NOT (${blank(ctx)})`;
}

/**
 * NocoDB's `empty`: for text the empty string only (NULL is `null`), for
 * other columns blank; `notempty` is its complement (NULL text is not empty).
 */
export function empty(ctx: ConditionContext): Fragment {
  return ctx.kind === 'text' ? sql`${ctx.col} = ${''}` : blank(ctx);
}

/** NocoDB's `notempty` (see {@link empty}). */
export function notEmpty(ctx: ConditionContext): Fragment {
  return ctx.kind === 'text' ? sql`${ctx.col} IS NULL OR ${ctx.col} <> ${''}` : notBlank(ctx);
}

/** The value a checkbox column compares with: boolean, or 1/0 where dt says the column is numeric. */
export function checkboxValue(ctx: ConditionContext, value: boolean): boolean | number {
  const dt = ctx.column.dt ?? '';
  if (/bool/i.test(dt)) return value;
  if (/int|bit|num|dec/i.test(dt)) return value ? 1 : 0;
  return value;
}

/** Checked: the column is true. */
export function checked(ctx: ConditionContext): Fragment {
  return sql`${ctx.col} = ${checkboxValue(ctx, true)}`;
}

/** Not checked: false or NULL. */
export function notChecked(ctx: ConditionContext): Fragment {
  return sql`${ctx.col} IS NULL OR ${ctx.col} = ${checkboxValue(ctx, false)}`;
}

/** `is` with its argument; `isnot` is the exact complement. */
export function isCondition(ctx: ConditionContext, arg: IsArgument, negate: boolean): Fragment {
  const effective = negate ? COMPLEMENT[arg] : arg;
  switch (effective) {
    case 'null':
      return sql`${ctx.col} IS NULL`;
    case 'notnull':
      return sql`${ctx.col} IS NOT NULL`;
    case 'blank':
      return blank(ctx);
    case 'notblank':
      return notBlank(ctx);
    case 'true':
      return checked(ctx);
    case 'false':
      return notChecked(ctx);
  }
}

const COMPLEMENT: Record<IsArgument, IsArgument> = {
  null: 'notnull', notnull: 'null', blank: 'notblank', notblank: 'blank', true: 'false', false: 'true',
};

/** `NOT (f) OR col IS NULL`: negative operators match NULL rows too. */
export function notOrNull(ctx: ConditionContext, fragment: Fragment): Fragment {
  return sql`NOT (${fragment}) OR ${ctx.col} IS NULL`;
}
