import jwt from 'jsonwebtoken';
import { signUserJwt, verifyUserJwt } from './user-jwt';

const secret = 'a-test-secret-of-enough-length';
const claims = { email: 'a@b.co', id: 'us00000000000001', roles: 'org-level-viewer', token_version: 'v1' };

describe('user JWT', () => {
  it('round-trips the NocoDB claims', () => {
    const token = signUserJwt(claims, secret, '10h');
    expect(verifyUserJwt(token, secret)).toEqual(claims);
    expect(jwt.decode(token, { complete: true })?.header.alg).toBe('HS256');
  });

  it('refuses another secret, alg none, another algorithm, tampered claims and expiry', () => {
    const token = signUserJwt(claims, secret, '10h');
    expect(verifyUserJwt(signUserJwt(claims, 'another-secret-of-enough-length', '10h'), secret)).toBeUndefined();
    const [h, p, s] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect(verifyUserJwt(none, secret)).toBeUndefined();
    expect(verifyUserJwt(jwt.sign(claims, secret, { algorithm: 'HS512' }), secret)).toBeUndefined();
    const tampered = Buffer.from(JSON.stringify({ ...claims, roles: 'super' })).toString('base64url');
    expect(verifyUserJwt(`${h}.${tampered}.${s}`, secret)).toBeUndefined();
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, secret, { algorithm: 'HS256' });
    expect(verifyUserJwt(expired, secret)).toBeUndefined();
  });
});
