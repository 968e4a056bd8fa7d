import { BaseModel } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

/** A single-use password-reset token, hashed (`auth.password_resets`). */
export class PasswordResetModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.password_resets`;
  static override idColumn = 'hash';

  declare hash: string;
  declare user_id: string;
  declare expires_at: Date;
  declare used_at: Date | null;
}

// Single-use password-reset tokens, stored hashed.

export async function insertPasswordReset(db: Db, row: { hash: string; user_id: string; expires_at: Date }): Promise<void> {
  await PasswordResetModel.query(db).insert(row);
}

/** Uses a live token once; the user id, or undefined when unknown, used or expired. */
export async function consumePasswordReset(db: Db, hash: string): Promise<string | undefined> {
  const rows = await PasswordResetModel.query(db)
    .where({ hash }).whereNull('used_at').where('expires_at', '>', db.fn.now())
    .patch({ used_at: db.fn.now() as unknown as Date }).returning('user_id');
  return rows[0]?.user_id;
}

/** A password change makes every outstanding reset link useless. */
export async function invalidatePasswordResetsOfUser(db: Db, userId: string): Promise<void> {
  await PasswordResetModel.query(db).where({ user_id: userId }).whereNull('used_at').patch({ used_at: db.fn.now() as unknown as Date });
}
