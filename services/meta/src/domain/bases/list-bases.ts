import { isSuper, type Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { countLiveBases, listLiveBases, type BaseRow } from '../../repositories/base.repository';
import { listSources } from '../../repositories/source.repository';
import { pageInfo, resolvePaging, type PagingInput } from '@tabula/contracts';
import { presentBase } from '../../presenters/base.presenter';

async function visibleTo(ports: MetaPorts, principal: Principal, bases: BaseRow[]): Promise<BaseRow[]> {
  const out: BaseRow[] = [];
  // roles are cached per (base, user) by BaseAccess; small batches bound the fan-out to auth
  for (let i = 0; i < bases.length; i += 16) {
    const batch = bases.slice(i, i + 16);
    const roles = await Promise.all(batch.map((b) => ports.baseAccess.roleOf(principal, b.id)));
    batch.forEach((b, j) => { if (roles[j] && roles[j] !== 'no-access') out.push(b); });
  }
  return out;
}

/**
 * The bases the caller is a member of, paged. Super sees every base (paged in
 * SQL). Others: memberships live in auth, so every live base is checked
 * through the cached `baseAccess.roleOf` and the page cut afterwards —
 * fine for hundreds of bases; a membership-list endpoint in auth would be the
 * next step beyond that.
 */
export async function listBases(ports: MetaPorts, principal: Principal, query: PagingInput) {
  const paging = resolvePaging(query, { limit: 25, max: 1000 });
  let rows: BaseRow[];
  let total: number;
  if (isSuper(principal) && !principal.baseScope) {
    rows = await listLiveBases(ports.db, { offset: paging.offset, limit: paging.limit });
    total = await countLiveBases(ports.db);
  } else {
    const visible = await visibleTo(ports, principal, await listLiveBases(ports.db));
    total = visible.length;
    rows = visible.slice(paging.offset, paging.offset + paging.limit);
  }
  const list = await Promise.all(rows.map(async (b) => presentBase(b, await listSources(ports.db, b.id))));
  return { list, pageInfo: pageInfo(total, paging.limit, paging.offset) };
}
