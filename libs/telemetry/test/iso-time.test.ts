import pino from 'pino';
import { isoTime, isoTimeAt } from '../src/iso-time';

const reference = (t: number) => `,"time":"${new Date(t).toISOString()}"`;

describe('isoTimeAt', () => {
  it('writes what pino\'s isoTime writes, byte for byte, at every millisecond of a second and across seconds', () => {
    const base = Date.UTC(2026, 10, 27, 17, 24, 59);
    for (let t = base - 1500; t < base + 2500; t++) expect(isoTimeAt(t)).toBe(reference(t));
  });

  it('and at awkward times: the epoch, before it, leap days, year ends, five- and six-digit years, fractions, a jump back', () => {
    const times = [
      0, 1, 999, 1000, -1, -999, -1000, -1001, -1.5, 1.7, 999.9,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2024, 2, 1), Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2000, 0, 1),
      Date.UTC(10000, 0, 1, 0, 0, 0, 7), Date.UTC(275760, 8, 13) - 1, Date.UTC(-271821, 3, 20) + 1, Date.UTC(2026, 0, 1, 0, 0, 0, 50), 0,
    ];
    for (const t of times) expect(isoTimeAt(t)).toBe(reference(t));
    for (let i = 0; i < 5000; i++) {
      const t = Math.floor(Math.random() * 4e12);
      expect(isoTimeAt(t)).toBe(reference(t));
    }
  });

  it('isoTime is now, in the shape of pino\'s', () => {
    const before = Date.now();
    const ours = isoTime();
    const theirs = pino.stdTimeFunctions.isoTime();
    const parse = (field: string) => Date.parse(JSON.parse(`{${field.slice(1)}}`).time as string);
    expect(ours).toMatch(/^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
    expect(parse(ours)).toBeGreaterThanOrEqual(before);
    expect(parse(theirs) - parse(ours)).toBeLessThan(1000);
  });
});
