import { BaseModel, type RowOf } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

/** A row of `auth.refresh_tokens` (the token itself is never stored). */
export class RefreshTokenModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.refresh_tokens`;
  static override idColumn = 'hash';

  declare hash: string;
  declare user_id: string;
  declare family_id: string;
  declare expires_at: Date;
  declare revoked_at: Date | null;
  declare replaced_by: string | null;
}

/** A row of `auth.refresh_tokens`. */
export type RefreshTokenRow = RowOf<RefreshTokenModel>;

// Refresh sessions: rotation families of hashed tokens.

export async function insertRefreshToken(db: Db, row: Omit<RefreshTokenRow, 'revoked_at' | 'replaced_by'>): Promise<void> {
  await RefreshTokenModel.query(db).insert(row);
}

export async function findRefreshToken(db: Db, hash: string): Promise<RefreshTokenRow | undefined> {
  return RefreshTokenModel.query(db).where({ hash }).first();
}

/** Marks a live token as rotated; false when someone else rotated it first. */
export async function rotateRefreshToken(db: Db, hash: string, replacedBy: string): Promise<boolean> {
  const n = await RefreshTokenModel.query(db).where({ hash }).whereNull('revoked_at')
    .patch({ revoked_at: db.fn.now() as unknown as Date, replaced_by: replacedBy });
  return n === 1;
}

export async function revokeRefreshFamily(db: Db, familyId: string): Promise<void> {
  await RefreshTokenModel.query(db).where({ family_id: familyId }).whereNull('revoked_at').patch({ revoked_at: db.fn.now() as unknown as Date });
}

export async function revokeRefreshTokensOfUser(db: Db, userId: string): Promise<void> {
  await RefreshTokenModel.query(db).where({ user_id: userId }).whereNull('revoked_at').patch({ revoked_at: db.fn.now() as unknown as Date });
}
