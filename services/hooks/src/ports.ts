import type { CommonPorts } from '@tabula/runtime';
import type { Dispatcher } from 'undici';
import type { HooksConfig } from './config';
import type { AtRestRing } from '@tabula/runtime';
import type { Wake } from './adapters/wake';
import type { HookCache } from './cache/hook-cache';
import type { Completions } from './delivery/completions';
import type { StageMetrics } from './delivery/stage-metrics';
import type { DataClient, MetaClient } from './adapters/service-clients';

/** What the hooks service is handed at start-up. */
export interface HooksPorts extends CommonPorts {
  config: HooksConfig;
  /** This process's delivery worker id (`claimed_by` of what it claims, its heartbeat row). */
  workerId: string;
  /** Seals hook signing secrets at rest (SVC_ENCRYPTION_KEYS). */
  box: AtRestRing;
  /** The SSRF-guarded HTTP agent (an undici `Dispatcher`, keep-alive pool per target) every hook call goes through. */
  agent: Dispatcher;
  /** Wakes this process's delivery worker when deliveries were scheduled, and hands it fresh ones. */
  wake: Wake;
  /** Active hooks and filters per table (invalidated by hook changes). */
  hookCache: HookCache;
  /** Group commit of finished attempts (log row + delivery state). */
  completions: Completions;
  /** Per-stage latency histograms. */
  stages: StageMetrics;
  /** Meta's internal API (table contexts). */
  meta: MetaClient;
  /** Data's internal API (records for manual triggers, sync-hook cache drops). */
  data: DataClient;
}
