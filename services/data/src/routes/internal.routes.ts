import Router from '@koa/router';
import { dataInternal } from '@tabula/contracts';
import { requireService } from '@tabula/auth';
import { route } from '@tabula/http';
import { readRecordById } from '../domain/read-record-by-id';
import type { DataPorts } from '../ports';

/** The internal API of libs/contracts/src/data (services only). */
export function internalRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, dataInternal.readRecord, requireService(), async (ctx) =>
    readRecordById(ports, ctx.input.params.tableId, ctx.input.params.recordId));
  return router;
}
