import { table, type Db } from './schema';

/** A row of `auth.api_tokens`. */
export interface ApiTokenRow {
  id: string;
  hash: string;
  description: string | null;
  user_id: string;
  base_id: string | null;
  created_at: Date;
}

/** API tokens: org-scoped (`base_id` null) or base-scoped. */
export const apiTokenRepository = {
  async insert(db: Db, row: Omit<ApiTokenRow, 'created_at'>): Promise<ApiTokenRow> {
    const [created] = await table(db, 'api_tokens').insert(row).returning('*');
    return created as ApiTokenRow;
  },

  async findByHash(db: Db, hash: string): Promise<ApiTokenRow | undefined> {
    return table(db, 'api_tokens').where({ hash }).first();
  },

  async findById(db: Db, id: string): Promise<ApiTokenRow | undefined> {
    return table(db, 'api_tokens').where({ id }).first();
  },

  /** Tokens of one scope (`baseId` null: org tokens), optionally only one user's, newest first. */
  async list(db: Db, scope: { baseId: string | null; userId?: string }, page: { limit: number; offset: number }): Promise<{ rows: ApiTokenRow[]; total: number }> {
    const q = table(db, 'api_tokens').where((b) => {
      if (scope.baseId === null) b.whereNull('base_id');
      else b.where({ base_id: scope.baseId });
      if (scope.userId) b.where({ user_id: scope.userId });
    });
    const [rows, count] = await Promise.all([
      q.clone().orderBy([{ column: 'created_at', order: 'desc' }, 'id']).limit(page.limit).offset(page.offset),
      q.clone().count<{ n: string }[]>({ n: '*' }).first(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  },

  async delete(db: Db, id: string): Promise<void> {
    await table(db, 'api_tokens').where({ id }).delete();
  },

  /** Every API token of a user (org- and base-scoped) goes: a password change or reset revokes them. */
  async deleteAllOfUser(db: Db, userId: string): Promise<void> {
    await table(db, 'api_tokens').where({ user_id: userId }).delete();
  },

  /** A deleted base takes its base-scoped tokens with it. */
  async deleteOfBase(db: Db, baseId: string): Promise<void> {
    await table(db, 'api_tokens').where({ base_id: baseId }).delete();
  },
};
