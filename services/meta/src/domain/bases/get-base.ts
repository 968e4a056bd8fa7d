import type { MetaPorts } from '../../ports';
import { listSources } from '../../repositories/source.repository';
import { listTables } from '../../repositories/table.repository';
import { presentBase } from '../../presenters/base.presenter';
import { presentTableSummary } from '../../presenters/table.presenter';
import type { BaseInScope } from '../scopes/meta-scopes';

/** A base with its sources (never their config) and tables. */
export async function getBase(ports: MetaPorts, scope: BaseInScope) {
  const base = scope.value;
  const [sources, tables] = await Promise.all([listSources(ports.db, base.id), listTables(ports.db, base.id)]);
  return { ...presentBase(base, sources), tables: tables.map(presentTableSummary) };
}
