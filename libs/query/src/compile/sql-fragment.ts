import type { Knex } from 'knex';

/**
 * A piece of SQL with `?` value placeholders and `??` identifier placeholders,
 * and its bindings in order. The only way this library writes SQL: user input
 * is always a binding, never part of `sql`.
 */
export class Fragment {
  constructor(
    readonly sql: string,
    readonly bindings: readonly Knex.Value[],
  ) {}
}

/**
 * Template tag building a {@link Fragment}: interpolated fragments are spliced
 * in, every other interpolated value becomes a `?` binding.
 */
export function sql(strings: TemplateStringsArray, ...parts: (Fragment | Knex.Value)[]): Fragment {
  let text = strings[0];
  const bindings: Knex.Value[] = [];
  parts.forEach((part, i) => {
    if (part instanceof Fragment) {
      text += part.sql;
      bindings.push(...part.bindings);
    } else {
      text += '?';
      bindings.push(part);
    }
    text += strings[i + 1];
  });
  return new Fragment(text, bindings);
}

/** An identifier (quoted by knex via `??`; `a.b` becomes `"a"."b"`). */
export function ident(name: string): Fragment {
  return new Fragment('??', [name]);
}

/** `?, ?, ?` for a list of values. */
export function valueList(values: readonly Knex.Value[]): Fragment {
  return new Fragment(values.map(() => '?').join(', '), values);
}

/** Joins fragments, each parenthesised, with `AND` or `OR`. */
export function joinFragments(fragments: readonly Fragment[], op: 'AND' | 'OR'): Fragment {
  const text = fragments.map((f) => `(${f.sql})`).join(` ${op} `);
  return new Fragment(text, fragments.flatMap((f) => f.bindings));
}

/** A condition that is always false (an empty IN list). */
export const FALSE: Fragment = new Fragment('1 = 0', []);
/** A condition that is always true (an empty NOT IN list). */
export const TRUE: Fragment = new Fragment('1 = 1', []);

/** A comparison operator as SQL text (a fixed set, never user input). */
export function comparator(op: '=' | '<>' | '>' | '>=' | '<' | '<='): Fragment {
  return new Fragment(op, []);
}
