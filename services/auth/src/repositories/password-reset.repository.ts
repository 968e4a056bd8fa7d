import { table, type Db } from './schema';

/** Single-use password-reset tokens, stored hashed. */
export const passwordResetRepository = {
  async insert(db: Db, row: { hash: string; user_id: string; expires_at: Date }): Promise<void> {
    await table(db, 'password_resets').insert(row);
  },

  /** Uses a live token once; the user id, or undefined when unknown, used or expired. */
  async consume(db: Db, hash: string): Promise<string | undefined> {
    const rows: { user_id: string }[] = await table(db, 'password_resets')
      .where({ hash }).whereNull('used_at').where('expires_at', '>', db.fn.now())
      .update({ used_at: db.fn.now() }).returning('user_id');
    return rows[0]?.user_id;
  },

  /** A password change makes every outstanding reset link useless. */
  async invalidateAllOfUser(db: Db, userId: string): Promise<void> {
    await table(db, 'password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: db.fn.now() });
  },
};
