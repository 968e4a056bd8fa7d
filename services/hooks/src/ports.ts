import type { CommonPorts } from '@tabula/runtime';
import type { Dispatcher } from 'undici';
import type { HooksConfig } from './config';
import type { SecretBox } from '@tabula/runtime';
import type { Wake } from './adapters/wake';

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
