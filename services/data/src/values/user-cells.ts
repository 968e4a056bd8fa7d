import type { CellUser, ColumnInfo } from '@tabula/contracts';
import { isUserListUidt, isUserStampUidt } from '@tabula/query';
import type { TableHandle } from '../context/table-handle';
import type { DataPorts } from '../ports';
import type { ApiRecord } from '../presenters/record.presenter';
import { bodyValue } from '../attachments/attachment-cells';
import { atIndex, invalidValue } from './value-errors';

/**
 * User cells as NocoDB shows them: `CreatedBy` and `LastModifiedBy` store the
 * writing user's id (stamped by the service) and read as `{id, email,
 * display_name}`; a `User` column stores its users' ids comma-separated and
 * reads as a list of those objects (so does `Collaborator`, NocoDB's older name of User). Written by e-mail (`"a@x.org"`, `"a@x.org,
 * b@x.org"`), by `{email}` or `{id}` or a list of either; every user must be a
 * member of the base (400 otherwise, nothing written). One call to auth per
 * page or write, whatever the number of rows.
 */

/** The user columns among `columns`. */
export function userColumns(columns: ColumnInfo[]): ColumnInfo[] {
  return columns.filter((c) => isUserStampUidt(c.uidt) || isUserListUidt(c.uidt));
}

const idsOf = (stored: unknown): string[] =>
  typeof stored === 'string' ? stored.split(',').map((s) => s.trim()).filter(Boolean) : [];

const shown = (u: CellUser | undefined, id: string) => (u ? { id: u.id, email: u.email, display_name: u.display_name, meta: null } : { id, email: null, display_name: null, meta: null });

/** On read: replaces the stored ids of user cells by user objects (one call to auth for the page). */
export async function presentUserCells(ports: DataPorts, baseId: string, columns: ColumnInfo[], records: ApiRecord[]): Promise<void> {
  const cols = userColumns(columns);
  if (!cols.length || !records.length) return;
  const ids = new Set<string>();
  for (const record of records) for (const c of cols) for (const id of idsOf(record[c.title])) ids.add(id);
  const users = ids.size ? (await ports.auth.usersResolve({ params: { baseId }, body: { ids: [...ids], emails: [] } })).users : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const record of records) {
    for (const c of cols) {
      if (!(c.title in record)) continue;
      const list = idsOf(record[c.title]).map((id) => shown(byId.get(id), id));
      record[c.title] = isUserStampUidt(c.uidt) ? (list[0] ?? null) : (list.length ? list : null);
    }
  }
}

type Ref = { id: string } | { email: string };

/** The user references a client wrote into a User cell; undefined when the value is no reference at all. */
function refsOf(value: unknown): Ref[] | undefined {
  if (value === null || value === '') return [];
  const one = (v: unknown): Ref | undefined => {
    if (typeof v === 'string' && v.trim()) return v.includes('@') ? { email: v.trim() } : { id: v.trim() };
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.id === 'string' && o.id) return { id: o.id };
      if (typeof o.email === 'string' && o.email) return { email: o.email.trim() };
    }
    return undefined;
  };
  const items = typeof value === 'string' ? value.split(',').filter((s) => s.trim()) : Array.isArray(value) ? value : [value];
  const refs = items.map(one);
  return refs.every((r): r is Ref => r !== undefined) ? refs : undefined;
}

/**
 * Before a write: every User cell of the bodies becomes the comma-separated
 * ids of its users (copies of the bodies; the originals are left as given).
 * A reference to no user, or to a user with no role in the base, is a 400
 * naming the field (and the record's index in a bulk body).
 */
export async function withUserIds(ports: DataPorts, handle: TableHandle, bodies: unknown[], bulk: boolean): Promise<unknown[]> {
  const cols = handle.model.columns.filter((c) => isUserListUidt(c.uidt));
  if (!cols.length) return bodies;
  const cells: { i: number; column: ColumnInfo; refs: Ref[] }[] = [];
  bodies.forEach((body, i) => {
    for (const column of cols) {
      const value = bodyValue(body, column);
      if (value === undefined) continue;
      const refs = refsOf(value);
      if (!refs) throw maybeAt(invalidValue(column.title, 'expected e-mails, {id} or {email} of members of the base'), i, bulk);
      cells.push({ i, column, refs });
    }
  });
  if (!cells.length) return bodies;
  const ids = cells.flatMap((c) => c.refs.flatMap((r) => ('id' in r ? [r.id] : [])));
  const emails = cells.flatMap((c) => c.refs.flatMap((r) => ('email' in r ? [r.email] : [])));
  const users = ids.length || emails.length
    ? (await ports.auth.usersResolve({ params: { baseId: handle.baseId }, body: { ids, emails } })).users.filter((u) => u.member)
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const out = bodies.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? { ...(b as Record<string, unknown>) } : b));
  for (const { i, column, refs } of cells) {
    const found = refs.map((r) => ('id' in r ? byId.get(r.id) : byEmail.get(r.email.toLowerCase())));
    const missing = refs.findIndex((_, k) => !found[k]);
    if (missing >= 0) {
      const r = refs[missing];
      throw maybeAt(invalidValue(column.title, `'${'id' in r ? r.id : r.email}' is not a member of this base`), i, bulk);
    }
    const body = out[i] as Record<string, unknown>;
    const key = column.title in body ? column.title : column.column_name;
    body[key] = found.length ? [...new Set(found.map((u) => u!.id))].join(',') : null;
  }
  return out;
}

const maybeAt = (err: unknown, i: number, bulk: boolean) => (bulk ? atIndex(err, i) : err);
