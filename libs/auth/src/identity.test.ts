import { identitySigner, identityVerifier, signIdentity, verifyIdentity } from './identity';
import jwt from 'jsonwebtoken';
import type { Principal } from './principal';

const secret = 'a-test-secret-of-enough-length-0123456789';
const alice: Principal = { kind: 'user', id: 'u1', email: 'a@example.com', roles: ['org-level-creator'], via: 'jwt' };

describe('identitySigner', () => {
  afterEach(() => jest.useRealTimers());

  it('signs a principal once and reuses the token within half its lifetime', () => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    const sign = identitySigner(secret);
    const first = sign(alice);
    jest.advanceTimersByTime(29_000);
    expect(sign({ ...alice })).toBe(first);
    jest.advanceTimersByTime(2_000);
    const renewed = sign(alice);
    expect(renewed).not.toBe(first);
    expect(verifyIdentity(renewed, secret)).toMatchObject({ id: 'u1', roles: ['org-level-creator'] });
  });

  it('any change of what the identity says (roles, token, base scope) gives a fresh token at once', () => {
    const sign = identitySigner(secret);
    const base = sign(alice);
    const demoted = sign({ ...alice, roles: ['org-level-viewer'] });
    expect(demoted).not.toBe(base);
    expect(verifyIdentity(demoted, secret).roles).toEqual(['org-level-viewer']);
    expect(sign({ ...alice, via: 'api-token', tokenId: 't1' })).not.toBe(base);
    expect(verifyIdentity(sign({ ...alice, baseScope: 'p1' }), secret).baseScope).toBe('p1');
  });

  it('stays bounded: past the limit the oldest principal is signed afresh, recent ones are kept', () => {
    const sign = identitySigner(secret, 3);
    const tokens = ['u1', 'u2', 'u3'].map((id) => sign({ ...alice, id }));
    sign({ ...alice, id: 'u4' });
    expect(sign({ ...alice, id: 'u3' })).toBe(tokens[2]);
    expect(sign({ ...alice, id: 'u2' })).toBe(tokens[1]);
    jest.useFakeTimers({ now: Date.now() + 1000 });
    expect(sign({ ...alice, id: 'u1' })).not.toBe(tokens[0]);
  });
});

describe('identityVerifier', () => {
  afterEach(() => jest.useRealTimers());

  it('answers what verification answers, and refuses the token once it is past its exp', () => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    const verify = identityVerifier(secret);
    const token = signIdentity(alice, secret);
    expect(verify(token)).toEqual(verifyIdentity(token, secret));
    jest.advanceTimersByTime(59_000);
    expect(verify(token)).toMatchObject({ id: 'u1' });
    jest.advanceTimersByTime(1_000);
    expect(() => verify(token)).toThrow(/expired/);
  });

  it('never remembers a token that failed: a forged or tampered token is refused every time', () => {
    const verify = identityVerifier(secret);
    const forged = signIdentity(alice, 'another-secret-of-enough-length-0123456');
    expect(() => verify(forged)).toThrow();
    expect(() => verify(forged)).toThrow();
    const token = signIdentity(alice, secret);
    verify(token);
    const [h, p, s] = token.split('.');
    const elevated = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), roles: ['super'] })).toString('base64url');
    expect(() => verify(`${h}.${elevated}.${s}`)).toThrow(/signature/);
  });

  it('hands each caller its own principal (a change by one request is not seen by the next)', () => {
    const verify = identityVerifier(secret);
    const token = signIdentity(alice, secret);
    const first = verify(token);
    first.id = 'changed';
    expect(verify(token).id).toBe('u1');
  });

  it('stays bounded: past the limit the oldest token is verified afresh, recent ones are not', () => {
    const spy = jest.spyOn(jwt, 'verify');
    try {
      const verify = identityVerifier(secret, 2);
      const tokens = ['u1', 'u2', 'u3'].map((id) => signIdentity({ ...alice, id }, secret));
      for (const t of tokens) verify(t);
      expect(spy).toHaveBeenCalledTimes(3);
      verify(tokens[2]);
      verify(tokens[1]);
      expect(spy).toHaveBeenCalledTimes(3);
      verify(tokens[0]);
      expect(spy).toHaveBeenCalledTimes(4);
    } finally {
      spy.mockRestore();
    }
  });
});
