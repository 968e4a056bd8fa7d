import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '@tabula/auth';
import { errors } from '@tabula/http';
import type { RealtimePorts } from '../ports';
import { insertTicket, redeemTicket, type TicketGrant } from '../repositories/ticket.repository';

/** How long a ticket opens a stream. */
export const TICKET_TTL_MS = 60_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** Issues a single-use ticket for one stream of the caller (the guard checked viewer and up on its base). */
export async function issueTicket(ports: RealtimePorts, principal: Principal, body: { table_id: string } | { base_id: string }): Promise<{ ticket: string; expires_at: string }> {
  const kind = 'table_id' in body ? 'table' : 'base';
  const id = 'table_id' in body ? body.table_id : body.base_id;
  const ticket = `tk_${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + TICKET_TTL_MS);
  await insertTicket(ports.db, hashOf(ticket), { principal, scope_kind: kind, scope_id: id }, expiresAt);
  return { ticket, expires_at: expiresAt.toISOString() };
}

/** The grant of a ticket, used up now; 401 when unknown, used or expired. */
export async function useTicket(ports: RealtimePorts, ticket: string): Promise<TicketGrant> {
  const grant = await redeemTicket(ports.db, hashOf(ticket));
  if (!grant) throw errors.unauthorized('Invalid, used or expired ticket');
  return grant;
}
