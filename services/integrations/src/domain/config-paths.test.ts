import { MASK, maskConfig, mergeConfig, pathValue } from './config-paths';

describe('config paths', () => {
  const config = { client: 'pg', connection: { host: 'h', password: 'secret', user: 'u' }, apiKey: '' };

  it('masks present secret paths only, without touching the input', () => {
    expect(maskConfig(config, ['connection.password', 'apiKey', 'nope.deep'])).toEqual({ client: 'pg', connection: { host: 'h', password: MASK, user: 'u' }, apiKey: '' });
    expect(config.connection.password).toBe('secret');
    expect(pathValue(config, 'connection.host')).toBe('h');
    expect(pathValue(config, 'connection.host.x')).toBeUndefined();
  });

  it('merges objects deeply, null removes, an echoed mask keeps the secret, prototype keys are ignored', () => {
    const merged = mergeConfig(config, JSON.parse('{"connection":{"host":"h2","password":"********","user":null},"__proto__":{"polluted":true}}'));
    expect(merged).toEqual({ client: 'pg', connection: { host: 'h2', password: 'secret' }, apiKey: '' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
