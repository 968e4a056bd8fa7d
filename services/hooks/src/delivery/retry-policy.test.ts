import { nextDelayMs, outcomeOf } from './retry-policy';

describe('retry policy', () => {
  it('honours Retry-After on 429/503 and stops on 410', () => {
    expect(nextDelayMs(1000, 429, '7')).toBe(7000);
    expect(nextDelayMs(1000, 500, '7', () => 0.5)).toBe(1000);
    expect(outcomeOf(false, 410, 1, 10)).toBe('gone');
    expect(outcomeOf(false, 500, 3, 2)).toBe('failed');
    expect(outcomeOf(false, 500, 2, 2)).toBe('retry');
  });
});
