import fc from 'fast-check';
import knex, { type Knex } from 'knex';
import { FORMULA_COLUMNS } from '../../test/fixtures/formula-table';
import { createOperatorTable } from '../../test/fixtures/operator-table';
import { isQueryError } from '../query-error';
import { compileFormula, FORMULA_FUNCTIONS } from './index';

/**
 * Any formula text either compiles to SQL whose literals are all bound
 * values (a marker placed in every string literal never reaches the SQL
 * text) and that runs, or is refused with a 400 QueryError. Never a crash.
 */
const MARK = 'Zq';
const fields = ['{Num}', '{Price}', '{Title}', '{Due}', '{At}', '{Done}', '{Twice}', '{Nope}', '{cnum0000000000001}'];
const literal = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.string({ maxLength: 12 }).map((s) => `"${MARK}${s.replace(/["\\]/g, '')}"`),
  fc.string({ maxLength: 12 }).map((s) => `'${MARK}${s.replace(/['\\]/g, '')}'`),
  fc.constantFrom('TRUE', 'FALSE', 'BLANK()', "'days'", "'2024-01-31'"),
);
const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.constantFrom(...fields),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '&', '=', '!=', '<', '>=', '&&', '||'), tie('e')).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(fc.constantFrom(...FORMULA_FUNCTIONS), fc.array(tie('e'), { maxLength: 4 })).map(([fn, args]) => `${fn}(${args.join(', ')})`),
    tie('e').map((a) => `(${a})`),
    tie('e').map((a) => `-${a}`),
  ),
})).e;
const noise = fc.string({ maxLength: 40 });

describe('formula compiler properties', () => {
  let db: Knex;
  beforeAll(async () => {
    db = knex({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    await createOperatorTable(db, 't', 'sqlite3');
  });
  afterAll(async () => { await db.destroy(); });

  const check = async (text: string) => {
    let compiled;
    try {
      compiled = compileFormula(text, { dialect: 'sqlite3', columns: FORMULA_COLUMNS });
    } catch (err) {
      expect(isQueryError(err) && (err as { status: number }).status === 400).toBe(true);
      return;
    }
    for (const fragment of [compiled.select, compiled.expression]) expect(fragment.sql).not.toContain(MARK);
    await db('t').select(db.raw(`${compiled.select.sql} AS v`, [...compiled.select.bindings])).limit(6);
  };

  it('generated formulas compile with bound literals and run, or are refused with 400', async () => {
    await fc.assert(fc.asyncProperty(expr, check), { numRuns: 400 });
  });

  it('arbitrary text compiles safely or is refused with 400', async () => {
    await fc.assert(fc.asyncProperty(noise, check), { numRuns: 400 });
  });
});
