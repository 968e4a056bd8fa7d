import type Koa from 'koa';
import { AppError, type ErrorMapper } from '@tabula/http';
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
