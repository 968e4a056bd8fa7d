import { BaseModel } from '@tabula/db';
import { AUTH_SCHEMA, type Db } from './schema';

/** An invitation of an e-mail with no account yet into a base (`auth.invitations`), accepted at its sign-up. */
export class InvitationModel extends BaseModel {
  static override tableName = `${AUTH_SCHEMA}.invitations`;
  static override idColumn = ['email', 'base_id'];

  declare email: string;
  declare base_id: string;
  declare role: string;
  declare invited_by: string | null;
  declare created_at: Date;
}

/** A row of `auth.invitations`. */
export type InvitationRow = Pick<InvitationModel, 'email' | 'base_id' | 'role' | 'invited_by' | 'created_at'>;

/** Invites an e-mail into a base, or changes the role of its pending invitation. */
export async function upsertInvitation(db: Db, row: Pick<InvitationRow, 'email' | 'base_id' | 'role' | 'invited_by'>): Promise<void> {
  await InvitationModel.query(db).insert(row).onConflict(['email', 'base_id']).merge({ role: row.role, invited_by: row.invited_by });
}

/** The pending invitations of an e-mail, oldest first. */
export async function invitationsOf(db: Db, email: string): Promise<InvitationRow[]> {
  return InvitationModel.query(db).where({ email }).orderBy('created_at');
}

/** True when the e-mail has a pending invitation. */
export async function isInvited(db: Db, email: string): Promise<boolean> {
  return (await InvitationModel.query(db).select('base_id').where({ email }).first()) !== undefined;
}

/** Forgets an e-mail's invitations (accepted at sign-up). */
export async function deleteInvitationsOf(db: Db, email: string): Promise<void> {
  await InvitationModel.query(db).where({ email }).delete();
}

/** A deleted base invites nobody. */
export async function removeInvitationsOfBase(db: Db, baseId: string): Promise<void> {
  await InvitationModel.query(db).where({ base_id: baseId }).delete();
}
