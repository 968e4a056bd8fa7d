import { identitySigner, verifyIdentity } from './identity';
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
