import type Koa from 'koa';
import type { Dispatcher } from 'undici';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { HooksConfig } from './config';
import type { SecretBox } from './lib/secret-box';
import type { Wake } from './lib/wake';
import { hooksRouter } from './routes/hooks.routes';
import { hookExtrasRouter } from './routes/hook-extras.routes';
import { internalRouter } from './routes/internal.routes';

/** What the hooks service is handed at start-up. */
export interface HooksPorts extends CommonPorts {
  config: HooksConfig;
  /** Seals hook signing secrets at rest. */
  box: SecretBox;
  /** The SSRF-guarded HTTP dispatcher every hook call goes through. */
  dispatcher: Dispatcher;
  /** Wakes this process's delivery worker when deliveries were scheduled. */
  wake: Wake;
}

/** Builds the hooks service app. */
export function createApp(ports: HooksPorts): Koa {
  return standardServiceApp(ports, { routers: [hooksRouter(ports), hookExtrasRouter(ports), internalRouter(ports)] });
}
