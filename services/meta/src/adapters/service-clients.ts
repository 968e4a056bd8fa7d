import { clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';
import { authInternal, hooksInternalEndpoints, integrationsInternalEndpoints, storageShareEndpoints } from '@tabula/contracts';

/** The auth endpoint meta calls: recording a base's creator as its owner. */
export const authGrantEndpoints = { setRole: authInternal.setRole };

/** The typed clients of the services meta calls, built once at start-up (tests fake `services` underneath). */
export interface MetaClients {
  /** Records base roles (the owner of a new base). */
  auth: EndpointClient<typeof authGrantEndpoints>;
  /** Copies (and removes) the hooks of copied tables. */
  hooks: EndpointClient<typeof hooksInternalEndpoints>;
  /** Decrypted configs of integrations that sources are built on. */
  integrations: EndpointClient<typeof integrationsInternalEndpoints>;
  /** Shares a duplicated base's attachments with the copy. */
  storage: EndpointClient<typeof storageShareEndpoints>;
}

/** Builds meta's clients of the auth, hooks, integrations and storage services. */
export function metaClients(services: ServiceClient): MetaClients {
  return {
    auth: clientOf(services, authGrantEndpoints),
    hooks: clientOf(services, hooksInternalEndpoints),
    integrations: clientOf(services, integrationsInternalEndpoints),
    storage: clientOf(services, storageShareEndpoints),
  };
}
