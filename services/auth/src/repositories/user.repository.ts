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

/** Users by id and e-mail. */
export const userRepository = {
  async findById(db: Db, id: string): Promise<UserRow | undefined> {
    return UserModel.query(db).where({ id }).first();
  },

  async findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
    return UserModel.query(db).where({ email }).first();
  },

  async findByIds(db: Db, ids: string[]): Promise<UserRow[]> {
    return ids.length ? UserModel.query(db).whereIn('id', ids) : [];
  },

  async count(db: Db): Promise<number> {
    return UserModel.query(db).resultSize();
  },

  async insert(db: Db, row: Omit<UserRow, 'created_at' | 'updated_at' | 'email_verified'>): Promise<UserRow> {
    return UserModel.query(db).insert(row).returning('*');
  },

  /** New password and/or token version; the version rotation kills earlier JWTs. */
  async update(db: Db, id: string, patch: Partial<Pick<UserRow, 'password_hash' | 'token_version'>>): Promise<void> {
    await UserModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() as unknown as Date });
  },

  /** Serialises sign-ups so exactly one first user becomes super. */
  async lockSignups(db: Db): Promise<void> {
    await db.raw("select pg_advisory_xact_lock(hashtext('tabula.auth.signup'))");
  },
};
