import { cdfProblem, valueFits } from './value-rules';

describe('value rules', () => {
  it('validates defaults per type', () => {
    expect(cdfProblem('Number', 'abc', [])).toMatch(/not valid/);
    expect(cdfProblem('Number', '12', [])).toBeUndefined();
    expect(cdfProblem('SingleSelect', 'c', ['a', 'b'])).toMatch(/not valid/);
    expect(cdfProblem('ID', '1', [])).toMatch(/not supported/);
    expect(valueFits('Date', '2024-02-29')).toBe(true);
    expect(valueFits('Date', '2023-02-29')).toBe(false);
    expect(valueFits('Date', 'yesterday')).toBe(false);
    expect(valueFits('Checkbox', 'yes')).toBe(true);
    expect(valueFits('MultiSelect', 'a,b', ['a', 'b'])).toBe(true);
  });
});
