import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KeyRing, SecretBox, deriveSigningKey, persistentSecret } from './secrets';

const MATERIAL = 'material-one-0123456789';

describe('persistent secrets', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tabula-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a secret once under DATA_DIR (mode 600) and reads the same one afterwards', () => {
    const first = persistentSecret(dir, 'x-key');
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect(persistentSecret(dir, 'x-key')).toBe(first);
    expect(readFileSync(path.join(dir, 'x-key'), 'utf8')).toBe(first);
    expect(statSync(path.join(dir, 'x-key')).mode & 0o777).toBe(0o600);
  });
});

describe('SecretBox', () => {
  it('seals and opens, and refuses another key, another purpose or tampering', () => {
    const box = new SecretBox('tabula-meta-sources', 'key-one-0123456789');
    const sealed = box.seal({ password: 'p' });
    expect(sealed).not.toContain('p"');
    expect(box.open(sealed)).toEqual({ password: 'p' });
    expect(() => new SecretBox('tabula-meta-sources', 'key-two-0123456789').open(sealed)).toThrow();
    expect(() => new SecretBox('tabula-hook-secrets', 'key-one-0123456789').open(sealed)).toThrow();
    expect(() => box.open(sealed.slice(0, -2) + 'AA')).toThrow();
    expect(() => box.open('v2.a.b.c.d')).toThrow(/unknown sealed format/);
  });

  it('opens what the services sealed before the mechanism was shared (same derivation)', () => {
    // sealed by the former services/meta/src/lib/secret-box.ts and services/hooks/src/lib/secret-box.ts
    const meta = 'v1.5EErWCOfqTj8Ydp9.seh-tnCJidj8TriqdNBUwA.lz4K3mq2haFYETE-fD8E6BSQRBybQ0m5m_QMCiYSFMVM2Uj-BULuUKGC6FU';
    const hooks = 'v1._Jb-zgmje7ClcVEf.fDiqe8Jh8LGrZcfjlwB50g.fLq9SXlj119FHTQ';
    expect(new SecretBox('tabula-meta-sources', MATERIAL).open(meta)).toEqual({ connection: { host: 'db', password: 'pw' } });
    expect(new SecretBox('tabula-hook-secrets', MATERIAL).open(hooks)).toBe('whsec_abc');
  });
});

describe('KeyRing', () => {
  const purpose = 'tabula-integrations';
  const a = 'key-material-a-0000000001';
  const b = 'key-material-b-0000000002';

  it('seals with the first key, opens with any key of the ring, fails closed otherwise', () => {
    const sealed = new KeyRing(purpose, [a]).seal({ password: 'p' });
    expect(sealed).not.toContain('"p"');
    expect(new KeyRing(purpose, [b, a]).open(sealed)).toEqual({ password: 'p' });
    expect(new KeyRing(purpose, [b, a]).needsResealing(sealed)).toBe(true);
    expect(new KeyRing(purpose, [a, b]).needsResealing(sealed)).toBe(false);
    expect(() => new KeyRing(purpose, [b]).open(sealed)).toThrow(/no key of the ring/);
    const [v, id, iv, tag, data] = sealed.split('.');
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => new KeyRing(purpose, [a]).open([v, id, iv, tag, flipped].join('.'))).toThrow();
    expect(() => new KeyRing(purpose, [a]).open('v1.x.y.z')).toThrow(/unknown sealed format/);
  });

  it('uses a fresh IV every time and parses the comma-separated setting', () => {
    const ring = KeyRing.fromSetting(purpose, ` ${a} , ${b},`);
    expect(ring.seal(1)).not.toBe(ring.seal(1));
    expect(ring.primaryId).toBe(new KeyRing(purpose, [a]).primaryId);
    expect(() => KeyRing.fromSetting(purpose, ' , ')).toThrow();
  });

  it('opens what integrations sealed before the mechanism was shared (same derivation and key id)', () => {
    const ring = new KeyRing(purpose, [MATERIAL]);
    expect(ring.primaryId).toBe('D2cgFAAx');
    expect(ring.open('v2.D2cgFAAx.USXLWoF-kQnUCE71.DiG6wUBjbzKwl65drQvk1w.Y2Rx0ZiIKDc5eJ5SK1cJYa8')).toEqual({ apiKey: 'sk-1' });
  });
});

describe('derived signing keys', () => {
  it('derives storage\'s download-link key as before', () => {
    expect(deriveSigningKey('tabula.storage.dltemp', MATERIAL)).toBe('W54sG1Ib7FfmBLojSPoNuy5MYc-ijL5ACWpaXOOkVi8');
  });
});

describe('malformed input (mutation-testing survivors)', () => {
  it('a secret file an operator wrote with a trailing newline is read without it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tabula-secrets-nl-'));
    try {
      writeFileSync(path.join(dir, 'given'), 'operator-secret-0123456789\n');
      expect(persistentSecret(dir, 'given')).toBe('operator-secret-0123456789');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SecretBox and KeyRing refuse values of another format or with a part missing, by name; a ring needs a key', () => {
    const box = new SecretBox('p', MATERIAL);
    const [, iv, tag, data] = box.seal('x').split('.');
    for (const bad of [`v2.${iv}.${tag}.${data}`, `v1..${tag}.${data}`, `v1.${iv}..${data}`, `v1.${iv}.${tag}`]) {
      expect(() => box.open(bad)).toThrow('unknown sealed format');
    }
    const ring = new KeyRing('p', [MATERIAL]);
    const [, id, riv, rtag, rdata] = ring.seal('x').split('.');
    for (const bad of [`v1.${id}.${riv}.${rtag}.${rdata}`, `v2..${riv}.${rtag}.${rdata}`, `v2.${id}..${rtag}.${rdata}`, `v2.${id}.${riv}..${rdata}`, `v2.${id}.${riv}.${rtag}`]) {
      expect(() => ring.open(bad)).toThrow('unknown sealed format');
    }
    expect(() => new KeyRing('p', [])).toThrow('the key ring needs at least one key');
  });
});
