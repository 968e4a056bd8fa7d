import type Router from '@koa/router';
import { baseCreate, baseDelete, baseDuplicate, baseGet, baseInfoGet, baseList, baseUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createBase } from '../domain/bases/create-base';
import { listBases } from '../domain/bases/list-bases';
import { getBase } from '../domain/bases/get-base';
import { updateBase } from '../domain/bases/update-base';
import { deleteBase } from '../domain/bases/delete-base';
import { baseInfo } from '../domain/bases/base-info';
import { duplicateBase } from '../domain/bases/duplicate-base';
import { listSources } from '../repositories/source.repository';
import { presentBase } from '../presenters/base.presenter';

/** Bases (spec "Bases"). */
export function basesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, baseList, async (ctx) => listBases(ports, principalOf(ctx), ctx.input.query));
  route(router, baseCreate, async (ctx) => {
    const base = await createBase(ports, principalOf(ctx), ctx.input.body);
    return presentBase(base, await listSources(ports.db, base.id));
  });
  route(router, baseGet, async (ctx) => getBase(ports, scopeOf(ctx)));
  route(router, baseUpdate, async (ctx) => updateBase(ports, scopeOf(ctx), ctx.input.body));
  route(router, baseDelete, async (ctx) => deleteBase(ports, scopeOf(ctx)));
  route(router, baseInfoGet, () => baseInfo());
  route(router, baseDuplicate, async (ctx) => duplicateBase(ports, scopeOf(ctx), ctx.input.body));
  return router;
}
