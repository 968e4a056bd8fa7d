import type { CommonPorts } from '@tabula/runtime';
import type { GatewayConfig } from './config';
import type { Authenticator } from './authenticator';
import type { Dispatcher } from './dispatcher';
import type { Principal } from '@tabula/auth';

/** The gateway's ports: the common ones plus how it reaches services. */
export interface GatewayPorts extends CommonPorts {
  config: GatewayConfig;
  authenticator: Authenticator;
  dispatcher: Dispatcher;
  startedAt: number;
  /** Signs the internal identity of a principal (cached per principal until near its expiry). */
  sign: (principal: Principal) => string;
}
