import { BaseModel, type RowOf } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

/** A row of `auth.users`. */
export class UserModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.users`;

  declare id: string;
  declare email: string;
  declare password_hash: string;
  declare firstname: string | null;
  declare lastname: string | null;
  declare roles: string;
  declare email_verified: boolean;
  declare token_version: string;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of `auth.users`. */
export type UserRow = RowOf<UserModel>;

// Users by id and e-mail.

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return UserModel.query(db).where({ id }).first();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return UserModel.query(db).where({ email }).first();
}

export async function findUsersByIds(db: Db, ids: string[]): Promise<UserRow[]> {
  return ids.length ? UserModel.query(db).whereIn('id', ids) : [];
}

export async function countUsers(db: Db): Promise<number> {
  return UserModel.query(db).resultSize();
}

export async function insertUser(db: Db, row: Omit<UserRow, 'created_at' | 'updated_at' | 'email_verified'>): Promise<UserRow> {
  return UserModel.query(db).insert(row).returning('*');
}

/** New password and/or token version; the version rotation kills earlier JWTs. */
export async function updateUser(db: Db, id: string, patch: Partial<Pick<UserRow, 'password_hash' | 'token_version'>>): Promise<void> {
  await UserModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() as unknown as Date });
}

/** Serialises sign-ups so exactly one first user becomes super. */
export async function lockSignups(db: Db): Promise<void> {
  await db.raw("select pg_advisory_xact_lock(hashtext('tabula.auth.signup'))");
}
