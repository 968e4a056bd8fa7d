import type Koa from 'koa';
import { standardServiceApp } from '@tabula/runtime';
import type { HooksPorts } from './ports';
import { hooksRouter } from './routes/hooks.routes';
import { hookExtrasRouter } from './routes/hook-extras.routes';
import { internalRouter } from './routes/internal.routes';


/** Builds the hooks service app. */
export function createApp(ports: HooksPorts): Koa {
  return standardServiceApp(ports, { routers: [hooksRouter(ports), hookExtrasRouter(ports), internalRouter(ports)] });
}
