import { table, type Db } from './schema';

/** A row of `auth.users`. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  firstname: string | null;
  lastname: string | null;
  roles: string;
  email_verified: boolean;
  token_version: string;
  created_at: Date;
  updated_at: Date;
}

/** Users by id and e-mail. */
export const userRepository = {
  async findById(db: Db, id: string): Promise<UserRow | undefined> {
    return table(db, 'users').where({ id }).first();
  },

  async findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
    return table(db, 'users').where({ email }).first();
  },

  async findByIds(db: Db, ids: string[]): Promise<UserRow[]> {
    return ids.length ? table(db, 'users').whereIn('id', ids) : [];
  },

  async count(db: Db): Promise<number> {
    const row = await table(db, 'users').count<{ n: string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  },

  async insert(db: Db, row: Omit<UserRow, 'created_at' | 'updated_at' | 'email_verified'>): Promise<UserRow> {
    const [created] = await table(db, 'users').insert(row).returning('*');
    return created as UserRow;
  },

  /** New password and/or token version; the version rotation kills earlier JWTs. */
  async update(db: Db, id: string, patch: Partial<Pick<UserRow, 'password_hash' | 'token_version'>>): Promise<void> {
    await table(db, 'users').where({ id }).update({ ...patch, updated_at: db.fn.now() });
  },

  /** Serialises sign-ups so exactly one first user becomes super. */
  async lockSignups(db: Db): Promise<void> {
    await db.raw("select pg_advisory_xact_lock(hashtext('tabula.auth.signup'))");
  },
};
