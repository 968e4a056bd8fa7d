import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AtRestRing, encryptionKeysOf, legacyMaterials, purposeKey, signingKeysOf } from './at-rest-keys';
import { KeyRing, SecretBox } from './secrets';
import { loadPlatformConfig } from './platform-config';

const A = 'ring-key-a-000000000000000000000000001';
const B = 'ring-key-b-000000000000000000000000002';
const FORMER = 'former-internal-secret-0123456789abcdef';
const purpose = 'tabula-meta-sources';

describe('AtRestRing', () => {
  it('seals with the first ring key as v3.<keyId>.<iv>.<tag>.<data>; every ring key opens; nothing else does', () => {
    const sealed = new AtRestRing(purpose, [A]).seal({ password: 'p' });
    expect(sealed).toMatch(/^v3\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('"p"');
    expect(new AtRestRing(purpose, [B, A]).open(sealed)).toEqual({ password: 'p' });
    expect(() => new AtRestRing(purpose, [B]).open(sealed)).toThrow(/no key of SVC_ENCRYPTION_KEYS/);
    // the purpose separates services sharing one ring key
    expect(() => new AtRestRing('tabula-hook-secrets', [A]).open(sealed)).toThrow();
    const [v, id, iv, tag, data] = sealed.split('.');
    expect(() => new AtRestRing(purpose, [A]).open([v, id, iv, tag, `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`].join('.'))).toThrow();
    expect(() => new AtRestRing(purpose, [A]).open('v9.x.y.z.w')).toThrow(/unknown sealed format/);
    expect(() => new AtRestRing(purpose, [])).toThrow(/at least one key/);
  });

  it('opens the former formats with the former materials (v1 SecretBox, v2 KeyRing) and marks them for re-sealing', () => {
    const ring = new AtRestRing(purpose, [A], [FORMER, 'another-former-material-0000']);
    const v1 = new SecretBox(purpose, FORMER).seal({ connection: { password: 'pw' } });
    const v2 = new KeyRing(purpose, [FORMER]).seal({ apiKey: 'sk' });
    expect(ring.open(v1)).toEqual({ connection: { password: 'pw' } });
    expect(ring.open(v2)).toEqual({ apiKey: 'sk' });
    expect(ring.needsResealing(v1)).toBe(true);
    expect(ring.needsResealing(v2)).toBe(true);
    expect(ring.needsResealing(ring.seal(1))).toBe(false);
    expect(new AtRestRing(purpose, [B, A]).needsResealing(ring.seal(1))).toBe(true);
    expect(() => new AtRestRing(purpose, [A]).open(v1)).toThrow(/no former key/);
    expect(() => new AtRestRing(purpose, [A]).open(v2)).toThrow(/former key/);
  });

  it('derives purpose keys with HKDF-SHA256 (salt tabula-at-rest) and gives each purpose its own signing keys', () => {
    expect(purposeKey(purpose, A).toString('base64url')).toBe(purposeKey(purpose, A).toString('base64url'));
    expect(purposeKey(purpose, A).equals(purposeKey('tabula-hook-secrets', A))).toBe(false);
    // the documented derivation, computed with node:crypto alone, opens a sealed value (the format is the contract)
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(A), Buffer.from('tabula-at-rest'), Buffer.from(purpose), 32));
    expect(purposeKey(purpose, A).equals(key)).toBe(true);
    const [version, keyId, iv, tag, data] = new AtRestRing(purpose, [A]).seal({ answer: 42 }).split('.');
    expect([version, keyId]).toEqual(['v3', createHash('sha256').update(key).digest('base64url').slice(0, 8)]);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAuthTag(Buffer.from(tag, 'base64url'));
    expect(JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString())).toEqual({ answer: 42 });
    // a value cut before its data is no sealed value (not a failed decryption)
    expect(() => new AtRestRing(purpose, [A]).open([version, keyId, iv, tag].join('.'))).toThrow(/unknown sealed format/);
    expect(signingKeysOf('tabula.storage.dltemp', [A, B])).toEqual([
      purposeKey('tabula.storage.dltemp', A).toString('base64url'), purposeKey('tabula.storage.dltemp', B).toString('base64url'),
    ]);
  });
});

describe('where the ring keys come from', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tabula-at-rest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes SVC_ENCRYPTION_KEYS, else a key generated once under DATA_DIR', () => {
    expect(encryptionKeysOf({ SVC_ENCRYPTION_KEYS: [A, B], DATA_DIR: dir })).toEqual([A, B]);
    expect(existsSync(path.join(dir, 'encryption-key'))).toBe(false);
    const generated = encryptionKeysOf({ SVC_ENCRYPTION_KEYS: [], DATA_DIR: dir });
    expect(generated).toEqual([readFileSync(path.join(dir, 'encryption-key'), 'utf8')]);
    expect(encryptionKeysOf({ SVC_ENCRYPTION_KEYS: [], DATA_DIR: dir })).toEqual(generated);
  });

  it('lists every former material (setting, internal secret, file when present) and creates no file', () => {
    expect(legacyMaterials({ SVC_INTERNAL_SECRET: FORMER, DATA_DIR: dir }, { configured: ['own-setting-0123456789'], fileName: 'meta-encryption-key' }))
      .toEqual(['own-setting-0123456789', FORMER]);
    expect(existsSync(path.join(dir, 'meta-encryption-key'))).toBe(false);
    writeFileSync(path.join(dir, 'hooks-encryption-key'), 'file-material-0123456789\n');
    expect(legacyMaterials({ SVC_INTERNAL_SECRET: undefined, DATA_DIR: dir }, { fileName: 'hooks-encryption-key' })).toEqual(['file-material-0123456789']);
  });

  it('parses SVC_ENCRYPTION_KEYS (newest first), refuses short or repeated keys without showing them, requires it in cluster mode', () => {
    expect(loadPlatformConfig({ SVC_ENCRYPTION_KEYS: ` ${A} , ${B} ` }).SVC_ENCRYPTION_KEYS).toEqual([A, B]);
    expect(loadPlatformConfig({}).SVC_ENCRYPTION_KEYS).toEqual([]);
    expect(() => loadPlatformConfig({ SVC_ENCRYPTION_KEYS: `${A},short-secret` }))
      .toThrow(/SVC_ENCRYPTION_KEYS: each key must be at least 32 characters; key 2 of 2 has 12/);
    expect(() => loadPlatformConfig({ SVC_ENCRYPTION_KEYS: `${A},short-secret` })).not.toThrow(/short-secret/);
    expect(() => loadPlatformConfig({ SVC_ENCRYPTION_KEYS: `${A},${A}` })).toThrow(/listed twice/);
    const cluster = { TABULA_MODE: 'cluster', DATABASE_URL: 'postgres://x@h/db', SVC_INTERNAL_SECRET: 'i'.repeat(32), SVC_JWT_SECRET: 'j'.repeat(32), EVENT_BUS: 'kafka', KAFKA_BROKERS: 'k:9092' };
    expect(() => loadPlatformConfig(cluster)).toThrow(/SVC_ENCRYPTION_KEYS: required in cluster mode/);
    expect(loadPlatformConfig({ ...cluster, SVC_ENCRYPTION_KEYS: A }).SVC_ENCRYPTION_KEYS).toEqual([A]);
  });
});
