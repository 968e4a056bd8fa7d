import { BaseModel, type RowOf } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

/** A row of `auth.api_tokens`. */
export class ApiTokenModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.api_tokens`;

  declare id: string;
  declare hash: string;
  declare description: string | null;
  declare user_id: string;
  declare base_id: string | null;
  declare created_at: Date;
}

/** A row of `auth.api_tokens`. */
export type ApiTokenRow = RowOf<ApiTokenModel>;

// API tokens: org-scoped (`base_id` null) or base-scoped.

export async function insertApiToken(db: Db, row: Omit<ApiTokenRow, 'created_at'>): Promise<ApiTokenRow> {
  return ApiTokenModel.query(db).insert(row).returning('*');
}

export async function findApiTokenByHash(db: Db, hash: string): Promise<ApiTokenRow | undefined> {
  return ApiTokenModel.query(db).where({ hash }).first();
}

export async function findApiTokenById(db: Db, id: string): Promise<ApiTokenRow | undefined> {
  return ApiTokenModel.query(db).where({ id }).first();
}

/** Tokens of one scope (`baseId` null: org tokens), optionally only one user's, newest first. */
export async function listApiTokenRows(db: Db, scope: { baseId: string | null; userId?: string }, page: { limit: number; offset: number }): Promise<{ rows: ApiTokenRow[]; total: number }> {
  const q = ApiTokenModel.query(db).where((b) => {
    if (scope.baseId === null) b.whereNull('base_id');
    else b.where({ base_id: scope.baseId });
    if (scope.userId) b.where({ user_id: scope.userId });
  });
  const [rows, count] = await Promise.all([
    q.clone().orderBy([{ column: 'created_at', order: 'desc' }, 'id']).limit(page.limit).offset(page.offset),
    q.clone().resultSize(),
  ]);
  return { rows, total: count };
}

export async function deleteApiTokenRow(db: Db, id: string): Promise<void> {
  await ApiTokenModel.query(db).where({ id }).delete();
}

/** Every API token of a user (org- and base-scoped) goes: a password change or reset revokes them. */
export async function deleteApiTokensOfUser(db: Db, userId: string): Promise<void> {
  await ApiTokenModel.query(db).where({ user_id: userId }).delete();
}

/** A deleted base takes its base-scoped tokens with it. */
export async function deleteApiTokensOfBase(db: Db, baseId: string): Promise<void> {
  await ApiTokenModel.query(db).where({ base_id: baseId }).delete();
}
