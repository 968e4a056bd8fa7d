import fc from 'fast-check';
import { AppError } from '@tabula/http';
import { checkPassword, normaliseEmail, roleList, rolesForNewUser } from './account-rules';

describe('account rules', () => {
  it('lower-cases and trims valid e-mails', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  it('refuses malformed e-mails with 400 Invalid email', () => {
    for (const bad of ['', 'plain', 'a@b', '@x.co', 'a b@x.co', 'a@b@c.co', 'a@x.co,b@x.co', `${'a'.repeat(250)}@x.co`]) {
      expect(() => normaliseEmail(bad)).toThrow(expect.objectContaining({ status: 400, message: 'Invalid email' }));
    }
  });

  it('never returns an e-mail with upper case or whitespace', () => {
    fc.assert(fc.property(fc.string(), (raw) => {
      try {
        const email = normaliseEmail(raw);
        expect(email).toBe(email.toLowerCase());
        expect(email).not.toMatch(/\s/);
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
      }
    }));
  });

  it('requires at least 8 characters of password', () => {
    expect(() => checkPassword('1234567')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => checkPassword('12345678')).not.toThrow();
  });

  it('makes the first user super and later ones viewers', () => {
    expect(rolesForNewUser(0)).toBe('org-level-creator,super');
    expect(rolesForNewUser(1)).toBe('org-level-viewer');
    expect(roleList('org-level-creator, super')).toEqual(['org-level-creator', 'super']);
  });
});
