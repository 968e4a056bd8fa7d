import { defineService, deriveSigningKey, keyMaterial, type CommonPorts } from '@tabula/runtime';
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

/** Builds the storage ports from the platform's (tests build the app with them too). */
export function buildStoragePorts(common: CommonPorts, config: StorageConfig): StoragePorts {
  // links must survive a restart: keyMaterial keeps a generated key under DATA_DIR when nothing is configured
  const key = deriveSigningKey('tabula.storage.dltemp', keyMaterial(common, config.SVC_ATTACHMENT_SIGNING_KEY, 'storage-signing-key'));
  const publicUrl = (common.platform.SVC_PUBLIC_URL ?? `http://localhost:${common.platform.PORT}`).replace(/\/+$/, '');
  return {
    ...common, config, publicUrl,
    blobs: createBlobStore(config, common.platform.DATA_DIR),
    signer: new LinkSigner(key, config.SVC_ATTACHMENT_EXPIRE_SECONDS),
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
