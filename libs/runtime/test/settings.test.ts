import { z } from 'zod';
import { ConfigError, envInt } from '@tabula/config';
import { loadSettings, type ServiceDefinition } from '@tabula/runtime';

const service = (name: 'auth' | 'data', configSchema: z.ZodTypeAny): ServiceDefinition<any, any> => ({
  name, configSchema, buildPorts: () => { throw new Error('not built'); }, createApp: () => { throw new Error('not built'); },
});

describe('loadSettings', () => {
  const definitions = [
    service('auth', z.object({ SVC_REFRESH_TOKEN_DAYS: envInt(30, 1) })),
    service('data', z.object({ SVC_BULK_MAX_RECORDS: envInt(1000, 1, 100_000) })),
  ];

  it('lists every problem of platform and service settings in one error', () => {
    let error: ConfigError | undefined;
    try {
      loadSettings(definitions, {
        TABULA_MODE: 'cluster', LOG_LEVEL: 'loud', SVC_JWT_EXPIRES_IN: 'forever', PORT: '99999', EVENT_BUS: 'redis',
        SVC_REFRESH_TOKEN_DAYS: '0', SVC_BULK_MAX_RECORDS: 'many', EVENT_TOPIC_PREFIX: 'a b',
      });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'DATABASE_URL', 'EVENT_TOPIC_PREFIX', 'LOG_LEVEL', 'PORT', 'REDIS_URL', 'SVC_BULK_MAX_RECORDS', 'SVC_ENCRYPTION_KEYS', 'SVC_INTERNAL_SECRET',
      'SVC_JWT_EXPIRES_IN', 'SVC_JWT_SECRET', 'SVC_REFRESH_TOKEN_DAYS',
    ]);
    expect(error!.message.split('\n')[0]).toBe('Invalid configuration:');
  });

  it('returns the parsed platform settings when everything is valid', () => {
    const platform = loadSettings(definitions, { SVC_JWT_EXPIRES_IN: '7d', LOG_LEVEL: 'warn' });
    expect(platform).toMatchObject({ SVC_JWT_EXPIRES_IN: '604800s', LOG_LEVEL: 'warn', EVENT_TOPIC_PREFIX: 'tabula', SVC_ACCESS_LOG: true, SVC_METRICS_PUBLIC: false });
  });
});
