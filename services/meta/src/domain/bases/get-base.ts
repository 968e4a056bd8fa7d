import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { listSources } from '../../repositories/source.repository';
import { listTables } from '../../repositories/table.repository';
import { presentBase } from '../../presenters/base.presenter';
import { presentTableSummary } from '../../presenters/table.presenter';
import { requireBase } from '../access';

/** A base with its sources (never their config) and tables. */
export async function getBase(ports: MetaPorts, principal: Principal, baseId: string) {
  const base = await requireBase(ports, principal, baseId, 'base.read');
  const [sources, tables] = await Promise.all([listSources(ports.db, base.id), listTables(ports.db, base.id)]);
  return { ...presentBase(base, sources), tables: tables.map(presentTableSummary) };
}
