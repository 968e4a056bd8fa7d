import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import { REALTIME_SCHEMA } from './realtime-db';

/** A redeemed ticket: whose it was and which stream it opens. */
export interface TicketGrant {
  principal: Principal;
  scope_kind: 'table' | 'base';
  scope_id: string;
}

const tickets = (db: Knex) => db.withSchema(REALTIME_SCHEMA).table('tickets');

/** Stores a ticket by its hash (the ticket itself is never stored). */
export async function insertTicket(db: Knex, hash: string, grant: TicketGrant, expiresAt: Date): Promise<void> {
  await tickets(db).insert({ hash, principal: JSON.stringify(grant.principal), scope_kind: grant.scope_kind, scope_id: grant.scope_id, expires_at: expiresAt });
  // Expired tickets go with the next issue (small table: one short delete).
  await tickets(db).where('expires_at', '<', new Date(Date.now() - 60_000)).delete();
}

/** Marks the ticket used, once, while valid; answers its grant (undefined: unknown, used or expired). */
export async function redeemTicket(db: Knex, hash: string): Promise<TicketGrant | undefined> {
  const rows = await tickets(db).where({ hash }).whereNull('used_at').where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() }).returning(['principal', 'scope_kind', 'scope_id']) as TicketGrant[];
  return rows[0];
}
