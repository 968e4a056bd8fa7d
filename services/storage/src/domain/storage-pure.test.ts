import fc from 'fast-check';
import { isSafeKey } from '../adapters/blob-store';
import { diskNameOf, prefixOf, titleOf } from './file-names';
import { LinkSigner } from './link-signer';
import { dispositionOf, parseRange } from './serve-object';
import { decodeDataUrl } from './fetch-url';
import type { ObjectRow } from '../repositories/object.repository';

describe('file names', () => {
  it('any title gives a safe, unique disk name', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'binary' }), (name) => {
      const disk = diskNameOf(titleOf(name));
      expect(isSafeKey(`uploads/${disk}`)).toBe(true);
      expect(disk.length).toBeLessThanOrEqual(64 + 1 + 16 + 1 + 16);
    }));
    expect(diskNameOf('a.txt')).not.toBe(diskNameOf('a.txt'));
  });

  it('titles drop control and bidi-override characters, keep the rest, never empty', () => {
    expect(titleOf('a\u0000b\u202e.txt')).toBe('ab.txt');
    expect(titleOf('名前.png')).toBe('名前.png');
    expect(titleOf('\u0001')).toBe('file');
    expect(titleOf('x'.repeat(1000))).toHaveLength(255);
  });

  it('prefixes: plain segments pass, anything traversing or escaped is refused', () => {
    expect(prefixOf(undefined)).toBe('uploads');
    expect(prefixOf('noco/p1/m1/c1/')).toBe('noco/p1/m1/c1');
    for (const bad of ['..', 'a/..', '/abs', 'a\\b', 'a//b', '%2e%2e', 'a b', '.', 'a/./b', 'ünï', 'a\u0000']) expect(() => prefixOf(bad)).toThrow();
  });
});

describe('signed links', () => {
  const now = 1_800_000_000_000;
  const signer = new LinkSigner('0123456789abcdef0123456789abcdef', 7200, () => now);

  it('round-trips, expires, and refuses any change', () => {
    const token = signer.sign('uploads/a_1.txt');
    expect(signer.verify(token)).toEqual({ key: 'uploads/a_1.txt', expiresAt: now + 7200_000 });
    expect(new LinkSigner('0123456789abcdef0123456789abcdef', 7200, () => now + 7201_000).verify(token)).toBe('expired');
    expect(new LinkSigner('another-key-0123456789abcdef0123', 7200, () => now).verify(token)).toBe('invalid');
    fc.assert(fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'0123456789AZaz_-.'), (i, c) => {
      fc.pre(token[i] !== c);
      expect(signer.verify(token.slice(0, i) + c + token.slice(i + 1))).toBe('invalid');
    }));
  });

  it('signs with the first key of the ring and verifies with any; a former key only for links expiring by its limit', () => {
    const older = 'older-ring-key-0123456789abcdef0123';
    const newer = 'newer-ring-key-0123456789abcdef0123';
    const old = new LinkSigner(older, 7200, () => now).sign('uploads/b.txt');
    const rotated = new LinkSigner([newer, older], 7200, () => now);
    expect(rotated.verify(old)).toEqual({ key: 'uploads/b.txt', expiresAt: now + 7200_000 });
    expect(new LinkSigner(newer, 7200, () => now).verify(rotated.sign('uploads/b.txt'))).toMatchObject({ key: 'uploads/b.txt' });
    expect(new LinkSigner(newer, 7200, () => now).verify(old)).toBe('invalid');
    const former = (notAfter: number) => new LinkSigner(newer, 7200, () => now, [{ secret: older, notAfter }]);
    expect(former(now + 7200_000).verify(old)).toMatchObject({ key: 'uploads/b.txt' });
    expect(former(now + 7199_000).verify(old)).toBe('invalid');
  });

  it('a link is valid up to its expiry second included; a bad signature is invalid even once expired; a ring needs a key', () => {
    const token = signer.sign('uploads/c.txt');
    const at = (t: number) => new LinkSigner('0123456789abcdef0123456789abcdef', 7200, () => t);
    expect(at(now + 7200_000).verify(token)).toEqual({ key: 'uploads/c.txt', expiresAt: now + 7200_000 });
    expect(at(now + 7200_001).verify(token)).toBe('expired');
    const [expiry, key] = token.split('.');
    expect(at(now + 9999_000).verify(`${expiry}.${key}.${'A'.repeat(43)}`)).toBe('invalid');
    expect(() => new LinkSigner([], 7200)).toThrow('LinkSigner needs a secret');
    // the clock is read in seconds: a signer a fraction of a second later issues the same expiry
    expect(new LinkSigner('0123456789abcdef0123456789abcdef', 7200, () => now + 999).sign('uploads/c.txt')).toBe(token);
  });

  it('refuses anything around or inside a token that is not the canonical form: extra text, long fields, non-canonical base64', () => {
    const token = signer.sign('a');
    for (const bad of [`${token}x`, `x${token}`, `${token}.`, ` ${token}`, `1${'0'.repeat(12)}.${token.split('.').slice(1).join('.')}`]) expect(signer.verify(bad)).toBe('invalid');
    const [expiry, key, sig] = token.split('.');
    expect(key).toBe('YQ');
    // 'YR' decodes to the same 'a' (ignored trailing bits): the same signature must not verify it
    expect(signer.verify(`${expiry}.YR.${sig}`)).toBe('invalid');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig[42]);
    const twin = `${sig.slice(0, 42)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(signer.verify(`${expiry}.${key}.${twin}`)).toBe('invalid');
    // the longest key field (2048 characters) is accepted, one more is not
    const longest = 'k'.repeat(1536);
    expect(signer.verify(signer.sign(longest))).toEqual({ key: longest, expiresAt: now + 7200_000 });
    expect(signer.verify(signer.sign(`${longest}kk`))).toBe('invalid');
    // keys are UTF-8
    expect(signer.verify(signer.sign('uploads/é ü.txt'))).toMatchObject({ key: 'uploads/é ü.txt' });
  });
});

describe('ranges', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }], ['bytes=90-', { start: 90, end: 99 }], ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=50-500', { start: 50, end: 99 }], ['bytes=100-', 'unsatisfiable'], ['bytes=9-3', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'], ['items=0-1', 'unsatisfiable'], ['bytes=0-1,5-6', undefined],
  ])('%s of 100 bytes', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});

describe('content disposition', () => {
  const row = (title: string, mimetype: string) => ({ title, mimetype } as ObjectRow);
  it('previews only raster images and PDF; names are quoted safely', () => {
    expect(dispositionOf(row('a.png', 'image/png'))).toMatch(/^inline;/);
    expect(dispositionOf(row('a.pdf', 'application/pdf'))).toMatch(/^inline;/);
    for (const t of ['image/svg+xml', 'text/html', 'application/xhtml+xml', 'text/javascript', 'application/octet-stream']) {
      expect(dispositionOf(row('a', t))).toMatch(/^attachment;/);
    }
    expect(dispositionOf(row('a"b\r\n.txt', 'text/plain'))).toBe('attachment; filename="a_b__.txt"; filename*=UTF-8\'\'a%22b%0D%0A.txt');
  });
});

describe('data: URLs', () => {
  it('decode base64 and percent-encoded payloads; refuse oversized ones before decoding', async () => {
    const file = decodeDataUrl('data:text/plain;charset=utf-8;base64,aGVsbG8=', 10);
    expect(file.mimetype).toBe('text/plain');
    let text = '';
    for await (const c of file.body) text += c;
    expect(text).toBe('hello');
    expect(() => decodeDataUrl(`data:;base64,${Buffer.alloc(20).toString('base64')}`, 10)).toThrow(/larger/);
    expect(() => decodeDataUrl('data:text/plain,hello%20world!', 5)).toThrow(/larger/);
    expect(() => decodeDataUrl('data:nonsense', 5)).toThrow(/Malformed/);
  });
});
