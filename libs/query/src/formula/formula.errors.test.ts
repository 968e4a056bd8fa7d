import { FORMULA_COLUMNS } from '../../test/fixtures/formula-table';
import { compileFormula, FORMULA_FUNCTIONS } from './index';
import { isQueryError } from '../query-error';

const compile = (text: string) => compileFormula(text, { dialect: 'pg', columns: FORMULA_COLUMNS });

/** [formula, the problem the 400 names, the 1-based position it names (undefined: none)]. */
const BAD: [string, RegExp, number | undefined][] = [
  ['', /empty formula/, 1],
  ['{Num} +', /unexpected end/, 8],
  ['CONCAT({Title}', /expected ',' or '\)'/, 15],
  ['CONCAT({Title};', /unexpected character ';'/, 15],
  ['{Nope} + 1', /unknown field \{Nope\}/, 1],
  ['FOO(1)', /unknown function FOO/, 1],
  ['LEN()', /LEN takes 1 argument, not 0/, 1],
  ['LEN(1, 2)', /LEN takes 1 argument, not 2/, 1],
  ['IF(1)', /IF takes 2 to 3 arguments/, 1],
  ['{Title} + 1', /'\+' needs numbers, not string \(join text/, 9],
  ['{Due} + 1', /use DATEADD/, 7],
  ["DATEADD({Due}, 1, 'fortnight')", /unknown unit "fortnight"/, 19],
  ['DATEADD({Due}, 1, {Title})', /unit must be a text literal/, 19],
  ["DATEADD({Title}, 1, 'day')", /DATEADD: argument must be a date, not string/, 9],
  ['ROUND({Title})', /ROUND: argument 1 must be a number, not string/, 7],
  ['x + 1', /unknown name 'x'/, 1],
  ["'unterminated", /unterminated string/, 1],
  ['{}', /empty field reference/, 1],
  ['{Num', /unterminated field reference/, 1],
  ['1 < "a"', /compares number with string/, 3],
  ['{LoopA}', /cycle: LoopA → LoopB → LoopA/, 1],
  ['{Files}', /\{Files\} \(Attachment\) cannot be used/, 1],
  ['1 2', /unexpected the number 2/, 3],
  ['{Num} > BLANK()', /cannot compare with BLANK/, 7],
  ['A'.repeat(5000), /longer than 4000 characters/, undefined],
  [`${'ABS('.repeat(100)}1${')'.repeat(100)}`, /nested deeper than 48 levels/, undefined],
  [Array.from({ length: 1200 }, () => '1').join('+'), /more than 2000 terms/, undefined],
  ['LEN("a\0b")', /NUL character/, 7],
  // Audit finding 9: literals that would fail on every read are refused when saved.
  ["DATEADD('2024-13-45', 1, 'day')", /invalid date "2024-13-45"/, 9],
  ["{Due} > '2024-02-30'", /invalid date "2024-02-30"/, 7],
  ["DATETIME_DIFF({At}, '2024-06-15 24:00')", /invalid date "2024-06-15 24:00"/, 21],
  ["DAY('0000-01-01')", /invalid date "0000-01-01"/, 5],
  ['1e999 + 1', /number too large/, 1],
  // The library's literal arguments are checked when saved.
  ['REGEX_MATCH({Title}, "[a-")', /invalid regular expression/, 22],
  ['REGEX_MATCH({Title}, {Title})', /pattern must be a text literal/, 22],
  ['REGEX_REPLACE({Title}, "(?<=a)b", "")', /look-around/, 24],
  ["WEEKDAY({Due}, 'someday')", /start of the week must be a day name/, 16],
  ["ARRAYSORT({Tags}, 'up')", /order must be "asc" or "desc"/, 19],
  ["JSON_EXTRACT('x', '.a')", /the text is not JSON/, 14],
  ["JSON_EXTRACT('{}', 'a b')", /path must be a text literal/, 20],
  ["JSON_EXTRACT({Meta}, '.a')", /on PostgreSQL the text must be a JSON field or a text literal/, undefined],
  ['RECORD_ID(1)', /RECORD_ID takes 0 arguments/, 1],
];

describe('formula errors', () => {
  it.each(BAD)('%s is refused with 400 naming the problem', (text, problem, position) => {
    let error: unknown;
    try { compile(text); } catch (err) { error = err; }
    expect(isQueryError(error)).toBe(true);
    const e = error as { status: number; code: string; message: string; details: { position?: number } };
    expect(e.status).toBe(400);
    expect(e.code).toBe('ERR_INVALID_FORMULA');
    expect(e.message).toMatch(problem);
    if (position !== undefined) expect(e.details.position).toBe(position);
  });

  it('refuses a formula column referencing itself', () => {
    const self = { id: 'cself000000000001', title: 'Self', column_name: 'self', uidt: 'Formula', colOptions: { formula: '{Self} + 1' } };
    expect(() => compileFormula('{Self} + 1', { dialect: 'pg', columns: [...FORMULA_COLUMNS, self] }, self)).toThrow(/cycle: Self → Self/);
  });

  it('lists the supported functions', () => {
    expect(FORMULA_FUNCTIONS).toEqual(expect.arrayContaining(['ADD', 'CONCAT', 'DATEADD', 'DATETIME_DIFF', 'IF', 'SWITCH', 'WEEKDAY']));
    expect(FORMULA_FUNCTIONS).toEqual(expect.arrayContaining(['REGEX_MATCH', 'ROUNDUP', 'COUNTA', 'RECORD_ID', 'ARRAYSORT', 'JSON_EXTRACT', 'LAST_MODIFIED_TIME']));
    expect(FORMULA_FUNCTIONS.length).toBeGreaterThanOrEqual(70);
  });
});
