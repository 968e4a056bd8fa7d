import { KeyRing } from './key-ring';
import { MASK, maskConfig, mergeConfig, pathValue } from './config-paths';
import { classifyTarget, refusalOf } from '@tabula/http';

describe('KeyRing', () => {
  const a = 'key-material-a-0000000001';
  const b = 'key-material-b-0000000002';

  it('seals with the first key, opens with any key of the ring, fails closed otherwise', () => {
    const sealed = new KeyRing([a]).seal({ password: 'p' });
    expect(sealed).not.toContain('"p"');
    expect(new KeyRing([b, a]).open(sealed)).toEqual({ password: 'p' });
    expect(new KeyRing([b, a]).needsResealing(sealed)).toBe(true);
    expect(new KeyRing([a, b]).needsResealing(sealed)).toBe(false);
    expect(() => new KeyRing([b]).open(sealed)).toThrow(/no key of the ring/);
    const [v, id, iv, tag, data] = sealed.split('.');
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => new KeyRing([a]).open([v, id, iv, tag, flipped].join('.'))).toThrow();
    expect(() => new KeyRing([a]).open('v1.x.y.z')).toThrow(/unknown sealed format/);
  });

  it('uses a fresh IV every time and parses the comma-separated setting', () => {
    const ring = KeyRing.fromSetting(` ${a} , ${b},`);
    expect(ring.seal(1)).not.toBe(ring.seal(1));
    expect(ring.primaryId).toBe(new KeyRing([a]).primaryId);
    expect(() => KeyRing.fromSetting(' , ')).toThrow();
  });
});

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

describe('host policy', () => {
  it('refuses metadata and link-local always, loopback/private unless allowed', () => {
    expect(classifyTarget('169.254.169.254')).toBe('link-local');
    expect(refusalOf('169.254.169.254', true)).toMatch(/link-local/);
    expect(refusalOf('127.0.0.1', false)).toMatch(/loopback/);
    expect(refusalOf('127.0.0.1', true)).toBeNull();
    expect(refusalOf('10.1.2.3', false)).toMatch(/private/);
    expect(refusalOf('::ffff:127.0.0.1', true)).toMatch(/mapped/);
    expect(refusalOf('8.8.8.8', false)).toBeNull();
  });
});
