import { BaseModel } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

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

/** A base role of a user (`auth.base_members`). */
export class BaseMemberModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.base_members`;
  static override idColumn = ['base_id', 'user_id'];

  declare base_id: string;
  declare user_id: string;
  declare role: string;
  declare created_at: Date;
  declare updated_at: Date;
}

// Base roles of users (`auth.base_members`).

export async function baseRoleOf(db: Db, baseId: string, userId: string): Promise<string | undefined> {
  const row = await BaseMemberModel.query(db).select('role').where({ base_id: baseId, user_id: userId }).first();
  return row?.role;
}

/** Grants or changes a role. */
export async function upsertBaseMember(db: Db, baseId: string, userId: string, role: string): Promise<void> {
  await BaseMemberModel.query(db).insert({ base_id: baseId, user_id: userId, role })
    .onConflict(['base_id', 'user_id']).merge({ role, updated_at: db.fn.now() });
}

export async function removeBaseMember(db: Db, baseId: string, userId: string): Promise<boolean> {
  return (await BaseMemberModel.query(db).where({ base_id: baseId, user_id: userId }).delete()) > 0;
}

/** A deleted base has no members. */
export async function removeBaseMembers(db: Db, baseId: string): Promise<void> {
  await BaseMemberModel.query(db).where({ base_id: baseId }).delete();
}

export async function listBaseMembers(db: Db, baseId: string, page: { limit: number; offset: number }): Promise<{ rows: BaseMemberRow[]; total: number }> {
  const q = BaseMemberModel.query(db).alias('m').join(`${AUTH_SCHEMA}.users as u`, 'u.id', 'm.user_id').where('m.base_id', baseId);
  const [rows, count] = await Promise.all([
    q.clone().select('m.base_id', 'm.user_id', 'm.role', 'm.created_at', 'u.email', 'u.firstname', 'u.lastname', 'u.roles as main_roles')
      .orderBy([{ column: 'm.created_at' }, { column: 'u.email' }]).limit(page.limit).offset(page.offset),
    q.clone().resultSize(),
  ]);
  return { rows: rows as unknown as BaseMemberRow[], total: count };
}

/** Users by id or e-mail (case-insensitive), each with whether it has a role in the base. */
export async function usersWithMembership(db: Db, baseId: string, ids: string[], emails: string[]): Promise<{ id: string; email: string; firstname: string | null; lastname: string | null; member: boolean }[]> {
  if (!ids.length && !emails.length) return [];
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  const rows = await db(`${AUTH_SCHEMA}.users as u`)
    .leftJoin(`${AUTH_SCHEMA}.base_members as m`, (j) => { j.on('m.user_id', 'u.id').andOnVal('m.base_id', baseId); })
    .select('u.id', 'u.email', 'u.firstname', 'u.lastname', 'm.role')
    .where((q) => {
      if (ids.length) q.orWhereIn('u.id', [...new Set(ids)]);
      if (lower.length) q.orWhereRaw(`lower(u.email) in (${lower.map(() => '?').join(', ')})`, lower);
    });
  return (rows as { id: string; email: string; firstname: string | null; lastname: string | null; role: string | null }[])
    .map((r) => ({ id: r.id, email: r.email, firstname: r.firstname, lastname: r.lastname, member: !!r.role && r.role !== 'no-access' }));
}
