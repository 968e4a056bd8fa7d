import { defineService, deriveSigningKey, encryptionKeysOf, legacyMaterials, signingKeysOf, type CommonPorts } from '@tabula/runtime';
import { clientOf, createSafeAgent } from '@tabula/http';
import { dataAttachmentEndpoints, storageMetaEndpoints } from '@tabula/contracts';
import { storageConfigSchema, type StorageConfig } from './config';
import { createApp } from './app';
import type { StoragePorts } from './ports';
import { migrations } from '../migrations';
import { createBlobStore } from './adapters/create-blob-store';
import { LinkSigner } from './domain/link-signer';
import { STORAGE_SCHEMA } from './repositories/object.repository';
import { startGarbageCollector } from './domain/garbage-collector';

/** What storage's ring keys sign: `/dltemp` links. */
export const LINK_SIGNING_PURPOSE = 'tabula.storage.dltemp';

/** Builds the storage ports from the platform's (tests build the app with them too). */
export function buildStoragePorts(common: CommonPorts, config: StorageConfig): StoragePorts {
  // Links are signed with SVC_ENCRYPTION_KEYS (they survive a restart and a change of the internal secret).
  const keys = signingKeysOf(LINK_SIGNING_PURPOSE, encryptionKeysOf(common.platform));
  // Links signed before the ring with the former key stay valid until they expire: at most one lifetime after this start.
  const notAfter = Date.now() + config.SVC_ATTACHMENT_EXPIRE_SECONDS * 1000;
  const former = legacyMaterials(common.platform, { configured: config.SVC_ATTACHMENT_SIGNING_KEY ? [config.SVC_ATTACHMENT_SIGNING_KEY] : [], fileName: 'storage-signing-key' })
    .map((material) => ({ secret: deriveSigningKey(LINK_SIGNING_PURPOSE, material), notAfter }));
  const publicUrl = (common.platform.SVC_PUBLIC_URL ?? `http://localhost:${common.platform.PORT}`).replace(/\/+$/, '');
  return {
    ...common, config, publicUrl,
    blobs: createBlobStore(config, common.platform.DATA_DIR),
    signer: new LinkSigner(keys, config.SVC_ATTACHMENT_EXPIRE_SECONDS, Date.now, former),
    fetcher: createSafeAgent(config.SVC_ALLOW_LOCAL_UPLOADS),
    meta: clientOf(common.services, storageMetaEndpoints),
    data: clientOf(common.services, dataAttachmentEndpoints),
  };
}

/** The storage service (ARCHITECTURE.md "Services"). */
export const storageService = defineService<StorageConfig, StoragePorts>({
  name: 'storage',
  schema: STORAGE_SCHEMA,
  migrations,
  configSchema: storageConfigSchema,
  buildPorts: buildStoragePorts,
  createApp,
  async start(ports) {
    const gc = startGarbageCollector(ports);
    return [gc, { stop: () => (ports.fetcher as { close(): Promise<void> }).close() }];
  },
});
