import { z } from 'zod';
import { ConfigError, envBoolean, envDuration, envHostPortList, envInt, envUrl, loadConfig, logLevel, parseDurationSeconds } from './index';

const problems = (schema: z.ZodTypeAny, env: Record<string, string>): string[] => {
  try {
    loadConfig(schema, env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('setting formats', () => {
  it('durations: accepts 10h, 7d, 30m, 90s, 3600 (seconds) and normalises them to seconds', () => {
    const schema = z.object({ D: envDuration('10h') });
    expect(loadConfig(schema, {}).D).toBe('36000s');
    expect(['7d', '30m', '90s', '3600', '1.5h', '2 days'].map((D) => loadConfig(schema, { D }).D)).toEqual(['604800s', '1800s', '90s', '3600s', '5400s', '172800s']);
    expect(parseDurationSeconds('forever')).toBeUndefined();
  });

  it('durations: refuses forever, 0, negative and absurd values with a clear message', () => {
    const schema = z.object({ SVC_JWT_EXPIRES_IN: envDuration('10h') });
    for (const value of ['forever', '0', '-5h', '10 light-years', '500y']) {
      const [problem] = problems(schema, { SVC_JWT_EXPIRES_IN: value });
      expect(problem).toMatch(/^SVC_JWT_EXPIRES_IN: must be a duration from 1s to \d+d such as 10h/);
    }
  });

  it('log level: names the allowed values and the value given', () => {
    expect(problems(z.object({ LOG_LEVEL: logLevel }), { LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent; got "loud"',
    ]);
  });

  it('integers, booleans, URLs and broker lists say what they expect', () => {
    const schema = z.object({ N: envInt(5, 1, 10), B: envBoolean(false), U: envUrl(['postgres', 'postgresql']).optional(), K: envHostPortList() });
    expect(problems(schema, { N: 'abc', B: 'maybe', U: 'mysql://x/y', K: 'a:1,nope' })).toEqual([
      'N: must be an integer from 1 to 10; got "abc"',
      'B: must be true or false (or 1/0, yes/no); got "maybe"',
      'U: must be a postgres:// or postgresql:// URL',
      'K: each entry must be host:port; got "nope"',
    ]);
    expect(problems(schema, { N: '11' })).toEqual(['N: must be an integer from 1 to 10; got "11"']);
    expect(problems(schema, { N: '2.5' })).toHaveLength(1);
    expect(loadConfig(schema, { N: '7', B: 'yes', U: 'postgresql://h/db', K: 'k1:9092, k2:9092' })).toEqual({ N: 7, B: true, U: 'postgresql://h/db', K: ['k1:9092', 'k2:9092'] });
  });
});
