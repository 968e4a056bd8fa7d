import type { ServiceName } from './service-client';

/**
 * The replicas of each service: a `<NAME>_SERVICE_URL` setting may list
 * several base URLs (comma-separated: `start:cluster` with CLUSTER_REPLICAS),
 * and each call takes the next one in turn. On Kubernetes it is one Service
 * URL and the Service balances.
 */
export class ServiceReplicas {
  private readonly urls = new Map<ServiceName, string[]>();
  private readonly turn = new Map<ServiceName, number>();

  constructor(baseUrls: Partial<Record<ServiceName, string>>) {
    for (const [service, spec] of Object.entries(baseUrls) as [ServiceName, string | undefined][]) {
      const list = replicaUrls(spec);
      if (list.length) this.urls.set(service, list);
    }
  }

  /** The base URL for the next call to `service` (round robin), or undefined when it has none. */
  next(service: ServiceName): string | undefined {
    const list = this.urls.get(service);
    if (!list) return undefined;
    const index = this.turn.get(service) ?? 0;
    this.turn.set(service, (index + 1) % list.length);
    return list[index];
  }
}

/** The URLs of a `<NAME>_SERVICE_URL` setting (one, or several separated by commas). */
export function replicaUrls(spec: string | undefined): string[] {
  return (spec ?? '').split(',').map((url) => url.trim()).filter(Boolean);
}
