import fc from 'fast-check';
import knex, { type Knex } from 'knex';
import { COLUMNS, NOW } from '../../test/fixtures/columns';
import type { Dialect } from '../column/column.types';
import { applyFilter } from '../compile/filter.compiler';
import { isQueryError } from '../query-error';
import { parseSort } from '../sort/sort.parser';
import { resolveFields } from '../fields/fields.resolver';
import { parseFilterArrJson } from './filter-arr-json.normaliser';
import { parseWhere } from './filter.resolver';

const clients: Record<Dialect, Knex> = {
  pg: knex({ client: 'pg' }),
  mysql2: knex({ client: 'mysql2' }),
  sqlite3: knex({ client: 'sqlite3', useNullAsDefault: true }),
};
afterAll(async () => {
  await Promise.all(Object.values(clients).map((k) => k.destroy()));
});

/** Every word the compiler may write; anything else in the SQL text would have come from the input. */
const VOCABULARY = new Set(
  [
    'select', 'from', 'where', 'and', 'or', 'not', 'is', 'null', 'in', 'between', 'like', 'ilike', 'escape',
    'lower', 'cast', 'as', 'text', 'char', 'binary', 'concat', 'date', 'datetime', 'timezone',
  ],
);
const IDENTIFIERS = new Set(['t', ...COLUMNS.map((c) => c.column_name)]);

/** Asserts the SQL text is made of known identifiers, vocabulary, placeholders and punctuation only. */
function assertSafeSql(sql: string, bindings: readonly unknown[]): void {
  const quoted = /"([^"]*)"|`([^`]*)`/g;
  for (const match of sql.matchAll(quoted)) expect(IDENTIFIERS.has(match[1] ?? match[2])).toBe(true);
  const rest = sql.replace(quoted, ' ');
  expect(rest).not.toMatch(/['\\;-]/);
  for (const word of rest.match(/[A-Za-z_]+/g) ?? []) expect(VOCABULARY.has(word.toLowerCase())).toBe(true);
  for (const number of rest.match(/\d+/g) ?? []) expect(['0', '1']).toContain(number);
  expect(rest.match(/[<>=!]+/g)?.every((op) => ['=', '<', '>', '<=', '>=', '<>'].includes(op)) ?? true).toBe(true);
  expect((rest.match(/\?/g) ?? []).length).toBe(bindings.length);
}

/**
 * Parser + compiler on every dialect: safe SQL, or a 4xx QueryError, never
 * anything else. True when SQL with at least one binding came out.
 */
function checkWhere(where: string): boolean {
  let ast;
  try {
    ast = parseWhere(where, COLUMNS);
  } catch (error) {
    expectClientError(error);
    return false;
  }
  let compiled = false;
  for (const dialect of Object.keys(clients) as Dialect[]) {
    try {
      const { sql, bindings } = applyFilter(clients[dialect]('t'), ast, COLUMNS, dialect, { now: NOW }).toSQL();
      assertSafeSql(sql, bindings);
      compiled = bindings.length > 0;
    } catch (error) {
      expectClientError(error);
    }
  }
  return compiled;
}

function expectClientError(error: unknown): void {
  if (!isQueryError(error)) throw error;
  expect(error.status).toBeGreaterThanOrEqual(400);
  expect(error.status).toBeLessThan(500);
}

const titles = COLUMNS.filter((c) => !['Links', 'Lookup'].includes(c.title)).flatMap((c) => [c.title, c.id, c.column_name]);
const allNames = COLUMNS.flatMap((c) => [c.title, c.id, c.column_name]);
const goodOps = [
  'eq', 'neq', 'not', 'gt', 'gte', 'ge', 'lt', 'lte', 'le', 'like', 'nlike', 'is', 'isnot', 'in', 'notin', 'btw',
  'nbtw', 'blank', 'empty', 'null', 'notblank', 'notempty', 'notnull', 'checked', 'notchecked', 'allof', 'anyof',
  'nallof', 'nanyof', 'isWithin',
];
const ops = [...goodOps, 'bogus', 'EQ', ''];
const tricky = fc.string({
  unit: fc.constantFrom('(', ')', ',', '~', "'", '"', '%', '_', '!', '\\', ' ', ';', '-', 'a', '1', 'and', 'or', 'not', 'select'),
});
const plausible = fc.constantFrom(
  'today', 'exactDate,2024-01-31', 'pastNumberOfDays,7', 'daysAgo,3', 'pastWeek', '2024-01-31', '1,2', '1.5', '3',
  'true', 'false', 'null', 'blank', 'notblank', "x' or '1'='1", 'a,b,c', 'f(x, y)', ':-)', 'a)b', '09:30',
);
const valueArb = fc.oneof(
  { arbitrary: plausible, weight: 6 },
  { arbitrary: fc.integer().map(String), weight: 2 },
  { arbitrary: tricky, weight: 2 },
  { arbitrary: fc.string(), weight: 1 },
  { arbitrary: fc.constantFrom('2024-02-30', '1e999', '-0', '2024-01-31 10:00:00+02:00', ''), weight: 1 },
);
const ws = fc.constantFrom('', '', '', ' ', '  ', '\t');
const columnArb = fc.oneof(
  { arbitrary: fc.constantFrom(...titles), weight: 12 },
  { arbitrary: fc.constantFrom(...allNames), weight: 2 },
  { arbitrary: fc.string(), weight: 1 },
);
const opArb = fc.oneof({ arbitrary: fc.constantFrom(...goodOps), weight: 12 }, { arbitrary: fc.constantFrom(...ops), weight: 1 });
const randomCondition = fc
  .tuple(columnArb, opArb, fc.option(valueArb, { freq: 6 }), ws, ws)
  .map(([col, op, value, a, b]) => `(${a}${col}${b},${op}${value === null ? '' : `,${value}`}${a})`);
/** Conditions that fit their column, with values from the tricky alphabet where text is allowed. */
const fittingCondition = fc.oneof(
  fc.tuple(fc.constantFrom('Title', 'other name', 'Tags'), fc.constantFrom('eq', 'neq', 'like', 'nlike', 'in', 'notin', 'anyof', 'allof', 'nanyof', 'nallof'), fc.oneof(tricky, plausible)),
  fc.tuple(fc.constantFrom('Num', 'Price', 'Id'), fc.constantFrom('eq', 'neq', 'gt', 'lte', 'in', 'notin'), fc.integer().map(String)),
  fc.tuple(fc.constantFrom('Num', 'Price'), fc.constantFrom('btw', 'nbtw'), fc.constantFrom('1,2', '-1.5,3e2')),
  fc.tuple(fc.constantFrom('Due', 'At'), fc.constantFrom('eq', 'neq', 'gt', 'lt', 'gte', 'lte'), fc.constantFrom('today', 'exactDate,2024-01-31', 'daysAgo,3', 'daysFromNow,10', '2024-01-31 10:00', 'oneMonthAgo')),
  fc.tuple(fc.constantFrom('Due', 'At'), fc.constantFrom('isWithin'), fc.constantFrom('pastWeek', 'nextYear', 'pastNumberOfDays,7')),
  fc.tuple(fc.constantFrom('Due', 'At'), fc.constantFrom('btw', 'nbtw', 'in'), fc.constantFrom('2024-01-01,2024-02-01', '2024-01-01 10:00,2024-02-01')),
  fc.tuple(fc.constantFrom('Done'), fc.constantFrom('eq', 'neq', 'is', 'isnot'), fc.constantFrom('true', 'false')),
  fc.tuple(fc.constantFrom(...titles), fc.constantFrom('blank', 'notblank', 'is', 'isnot'), fc.constantFrom('', 'null', 'notnull', 'blank', 'notblank')),
  fc.tuple(fc.constantFrom('Done'), fc.constantFrom('checked', 'notchecked'), fc.constant('')),
).map(([col, op, value]) => `(${col},${op}${value === '' ? '' : `,${value}`})`);
const condition = fc.oneof({ arbitrary: fittingCondition, weight: 8 }, { arbitrary: randomCondition, weight: 1 });
const connector = fc.oneof(
  { arbitrary: fc.constantFrom('~and', '~or', '~not', '~AND', ' ~or '), weight: 15 },
  { arbitrary: fc.constantFrom('~xor', '', '~'), weight: 1 },
);
const whereArb = fc.letrec<{ expr: string; term: string }>((tie) => ({
  term: fc.oneof({ depthSize: 'small', withCrossShrink: true }, condition, tie('expr').map((e) => `(${e})`)),
  expr: fc
    .tuple(fc.option(fc.constantFrom('~not', '~and'), { freq: 5 }), fc.array(fc.tuple(connector, tie('term')), { maxLength: 4 }), tie('term'))
    .map(([lead, rest, first]) => `${lead ?? ''}${first}${rest.map(([c, t]) => c + t).join('')}`),
})).expr;

describe('where: property-based safety', () => {
  it('arbitrary strings give safe SQL or a 4xx QueryError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (w) => void checkWhere(w)), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (w) => void checkWhere(w)), { numRuns: 200 });
  });

  it('near-valid where strings give safe SQL or a 4xx QueryError', () => {
    let compiled = 0;
    const runs = 1500;
    fc.assert(
      fc.property(whereArb, (where) => {
        if (checkWhere(where)) compiled++;
      }),
      { numRuns: runs },
    );
    expect(compiled / runs).toBeGreaterThan(0.2);
  });

  it('values never reach the SQL text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /[^\s,()]/.test(s)), fc.constantFrom('eq', 'like', 'in', 'anyof', 'nlike', 'notin'), (value, op) => {
        const marker = `zq${value}`;
        const where = `(Title,${op},${marker})`;
        for (const dialect of Object.keys(clients) as Dialect[]) {
          let sql: string;
          try {
            sql = applyFilter(clients[dialect]('t'), parseWhere(where, COLUMNS), COLUMNS, dialect).toSQL().sql;
          } catch (error) {
            expectClientError(error);
            return;
          }
          expect(sql).not.toContain('zq');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON in filterArrJson gives an AST or a 4xx QueryError', () => {
    const item = fc.record(
      {
        field: fc.oneof(fc.constantFrom(...allNames), fc.string()),
        fk_column_id: fc.constantFrom(...COLUMNS.map((c) => c.id)),
        op: fc.constantFrom(...ops),
        comparison_op: fc.constantFrom(...ops),
        comparison_sub_op: fc.constantFrom('today', 'exactDate', 'daysAgo', 'pastWeek', 'x'),
        value: fc.oneof(valueArb, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.oneof(fc.string(), fc.integer()))),
        logical_op: fc.constantFrom('and', 'or', 'not', 'xor'),
        is_group: fc.boolean(),
        children: fc.array(fc.jsonValue(), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const check = (json: string) => {
      try {
        const ast = parseFilterArrJson(json, COLUMNS);
        const { sql, bindings } = applyFilter(clients.pg('t'), ast, COLUMNS, 'pg', { now: NOW }).toSQL();
        assertSafeSql(sql, bindings);
      } catch (error) {
        expectClientError(error);
      }
    };
    fc.assert(fc.property(fc.array(item, { maxLength: 5 }).map((a) => JSON.stringify(a)), check), { numRuns: 500 });
    fc.assert(fc.property(fc.json(), check), { numRuns: 300 });
    fc.assert(fc.property(fc.string(), check), { numRuns: 200 });
  });

  it('arbitrary sort and fields strings give columns or a 4xx QueryError', () => {
    const names = fc.array(fc.oneof(fc.constantFrom(...allNames.map((t) => `-${t}`), ...allNames, '~-Links', '~+Title'), fc.string()), { maxLength: 5 });
    fc.assert(
      fc.property(names.map((n) => n.join(',')), (text) => {
        for (const fn of [() => parseSort(text, COLUMNS), () => resolveFields(text, COLUMNS)]) {
          try {
            fn();
          } catch (error) {
            expectClientError(error);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
