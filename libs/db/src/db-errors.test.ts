import { isRefusedStatement } from './db-errors';

describe('isRefusedStatement', () => {
  it('is true only for a SQLSTATE of severity ERROR (the statement rolled back)', () => {
    expect(isRefusedStatement({ code: '23514', severity: 'ERROR' })).toBe(true);
    expect(isRefusedStatement({ code: '57P01', severity: 'FATAL' })).toBe(false);
    expect(isRefusedStatement(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isRefusedStatement({ code: 'ECONNRESET', severity: 'ERROR' })).toBe(false);
    expect(isRefusedStatement(undefined)).toBe(false);
  });
});
