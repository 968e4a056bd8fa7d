import { hashToken, newApiToken, newId, newRefreshToken, newResetToken, newTokenVersion } from './secret-token';

describe('secret tokens', () => {
  it('makes ids of a prefix plus 14 [0-9a-z]', () => {
    expect(newId('us')).toMatch(/^us[0-9a-z]{14}$/);
    expect(newId('tkn')).toMatch(/^tkn[0-9a-z]{14}$/);
  });

  it('makes 40-character API tokens of [A-Za-z0-9_-] that are never dotted like a JWT', () => {
    for (let i = 0; i < 200; i += 1) expect(newApiToken()).toMatch(/^[A-Za-z0-9_-]{40}$/);
  });

  it('makes refresh tokens of 40 random bytes in hex', () => {
    expect(newRefreshToken()).toMatch(/^[0-9a-f]{80}$/);
    expect(newRefreshToken()).not.toBe(newRefreshToken());
  });

  it('hashes deterministically with SHA-256 and never returns the input', () => {
    const token = newResetToken();
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token);
    expect(hashToken(`${token}x`)).not.toBe(hashToken(token));
    expect(newTokenVersion()).not.toBe(newTokenVersion());
  });
});
