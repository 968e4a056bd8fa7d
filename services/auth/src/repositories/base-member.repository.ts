import { table, type Db } from './schema';

/** A member of a base, joined with the user's public fields. */
export interface BaseMemberRow {
  base_id: string;
  user_id: string;
  role: string;
  created_at: Date;
  email: string;
  firstname: string | null;
  lastname: string | null;
  main_roles: string;
}

/** Base roles of users (`auth.base_members`). */
export const baseMemberRepository = {
  async roleOf(db: Db, baseId: string, userId: string): Promise<string | undefined> {
    const row = await table(db, 'base_members').where({ base_id: baseId, user_id: userId }).first('role');
    return row?.role;
  },

  /** Grants or changes a role. */
  async upsert(db: Db, baseId: string, userId: string, role: string): Promise<void> {
    await table(db, 'base_members').insert({ base_id: baseId, user_id: userId, role })
      .onConflict(['base_id', 'user_id']).merge({ role, updated_at: db.fn.now() });
  },

  async remove(db: Db, baseId: string, userId: string): Promise<boolean> {
    return (await table(db, 'base_members').where({ base_id: baseId, user_id: userId }).delete()) > 0;
  },

  /** A deleted base has no members. */
  async removeBase(db: Db, baseId: string): Promise<void> {
    await table(db, 'base_members').where({ base_id: baseId }).delete();
  },

  async list(db: Db, baseId: string, page: { limit: number; offset: number }): Promise<{ rows: BaseMemberRow[]; total: number }> {
    // withSchema also qualifies joined tables, so the join names the bare table.
    const q = table(db, 'base_members as m').join('users as u', 'u.id', 'm.user_id').where('m.base_id', baseId);
    const [rows, count] = await Promise.all([
      q.clone().select('m.base_id', 'm.user_id', 'm.role', 'm.created_at', 'u.email', 'u.firstname', 'u.lastname', 'u.roles as main_roles')
        .orderBy([{ column: 'm.created_at' }, { column: 'u.email' }]).limit(page.limit).offset(page.offset),
      q.clone().count<{ n: string }[]>({ n: '*' }).first(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  },
};
