import argon2 from 'argon2';
import { hashPassword, verifyPassword } from './password-hasher';

describe('verifyPassword', () => {
  afterEach(() => jest.restoreAllMocks());

  it('an unknown account (no hash) still runs one argon2id verification with the parameters of real hashes, and fails', async () => {
    const real = await hashPassword('a real password');
    const verify = jest.spyOn(argon2, 'verify');
    expect(await verifyPassword(undefined, 'a real password')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    const [dummy] = verify.mock.calls[0];
    // Same algorithm, version, memory, time and parallelism as a stored hash: the same work.
    const params = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(params(dummy)).toBe(params(real));
    expect(params(real)).toBe('argon2id$v=19$m=19456,p=1,t=2');
  });

  it('a known account verifies against its own hash', async () => {
    const real = await hashPassword('right password');
    const verify = jest.spyOn(argon2, 'verify');
    expect(await verifyPassword(real, 'right password')).toBe(true);
    expect(await verifyPassword(real, 'wrong password')).toBe(false);
    expect(verify.mock.calls.map(([hash]) => hash)).toEqual([real, real]);
  });
});
