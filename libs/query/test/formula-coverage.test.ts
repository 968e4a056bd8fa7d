import { FORMULA_FUNCTIONS } from '../src';
import { FORMULA_CASES, REGEX_CASES } from './fixtures/formula-table';

describe('the formula case table', () => {
  it('has a case for every supported function (run on PostgreSQL, MariaDB and SQLite by formulas.*.test.ts)', () => {
    const missing = FORMULA_FUNCTIONS.filter((fn) => ![...FORMULA_CASES, ...REGEX_CASES].some(([formula]) => new RegExp(`\\b${fn}\\(`, 'i').test(formula)));
    expect(missing).toEqual([]);
    expect(FORMULA_FUNCTIONS.length).toBeGreaterThanOrEqual(70);
  });
});
