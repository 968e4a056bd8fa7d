import { table, type Db } from './schema';

/** A row of `auth.refresh_tokens` (the token itself is never stored). */
export interface RefreshTokenRow {
  hash: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  replaced_by: string | null;
}

/** Refresh sessions: rotation families of hashed tokens. */
export const refreshTokenRepository = {
  async insert(db: Db, row: Omit<RefreshTokenRow, 'revoked_at' | 'replaced_by'>): Promise<void> {
    await table(db, 'refresh_tokens').insert(row);
  },

  async findByHash(db: Db, hash: string): Promise<RefreshTokenRow | undefined> {
    return table(db, 'refresh_tokens').where({ hash }).first();
  },

  /** Marks a live token as rotated; false when someone else rotated it first. */
  async rotate(db: Db, hash: string, replacedBy: string): Promise<boolean> {
    const n = await table(db, 'refresh_tokens').where({ hash }).whereNull('revoked_at')
      .update({ revoked_at: db.fn.now(), replaced_by: replacedBy });
    return n === 1;
  },

  async revokeFamily(db: Db, familyId: string): Promise<void> {
    await table(db, 'refresh_tokens').where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  },

  async revokeAllOfUser(db: Db, userId: string): Promise<void> {
    await table(db, 'refresh_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  },
};
