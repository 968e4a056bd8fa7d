import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import { aliasesOf, recordCreateV2, recordCreateV3, recordListV2, recordListV3, recordReadV2, recordReadV3, recordsOfTable, recordsOfView, type AnyEndpoint } from '@tabula/contracts';
import { AppError, directRoutes, type ErrorMapper } from '@tabula/http';
import { isQueryError } from '@tabula/query';
import { standardServiceApp } from '@tabula/runtime';
import { contractAuthorizer } from '@tabula/auth';
import type { DataPorts } from './ports';
import { recordsRouter } from './routes/records.routes';
import { bulkRouter } from './routes/bulk.routes';
import { internalRouter } from './routes/internal.routes';
import { attachmentsInternalRouter } from './routes/attachments-internal.routes';
import { nestedRouter } from './routes/nested.routes';
import { recordsV2Router } from './routes/records-v2.routes';
import { linksV2Router } from './routes/links-v2.routes';
import { recordsV3Router } from './routes/records-v3.routes';
import { aggregatesRouter } from './routes/aggregates.routes';
import { recordsV2BulkRouter } from './routes/records-v2-bulk.routes';
import { dataScopes } from './domain/table-access';

/** The query library's errors carry their own status and code. */
const queryErrorMapper: ErrorMapper = (err) =>
  isQueryError(err) ? new AppError(err.status, err.code, err.message, err.details) : undefined;

/** Builds the data service app; never listens, reads no environment. */
export function createApp(ports: DataPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, dataScopes(ports));
  return standardServiceApp(ports, {
    routers: [
      bulkRouter(ports, authorizer), aggregatesRouter(ports, authorizer), recordsV2BulkRouter(ports, authorizer), recordsRouter(ports, authorizer), nestedRouter(ports, authorizer),
      recordsV2Router(ports, authorizer), linksV2Router(ports, authorizer), recordsV3Router(ports, authorizer),
      internalRouter(ports), attachmentsInternalRouter(ports),
    ],
    errorMappers: [queryErrorMapper],
    bodyLimit: 50 * 1024 * 1024,
  });
}

/** The records routes most calls are: list, read by id and insert one (v1 on tables and views, v2, v3), with their aliases. */
const HOT_ROUTES: readonly AnyEndpoint[] = [
  ...[recordsOfTable, recordsOfView].flatMap((e) => [e.list, e.read, e.create]),
  recordListV2, recordReadV2, recordCreateV2, recordListV3, recordReadV3, recordCreateV3,
];

/** The endpoint ids served by the direct path. */
export const HOT_ROUTE_IDS: ReadonlySet<string> = new Set(HOT_ROUTES.flatMap((e) => [e, ...aliasesOf(e)]).map((e) => e.id));

/**
 * The data service's request handler: the hot records routes through the
 * direct path (directRoutes: the same context, layers, guard, handler and
 * response writing without the app's router stack), the rest through the
 * app. `SVC_DATA_DIRECT_PATH=false` serves everything through the app.
 */
export function requestHandler(app: Koa, ports: DataPorts): RequestListener {
  return ports.config.SVC_DATA_DIRECT_PATH ? directRoutes(app, HOT_ROUTE_IDS) : app.callback();
}
