import type { CommonPorts } from '@tabula/runtime';
import type { EndpointClient } from '@tabula/http';
import type { dataAttachmentEndpoints, storageMetaEndpoints } from '@tabula/contracts';
import type { Dispatcher } from 'undici';
import type { StorageConfig } from './config';
import type { BlobStore } from './adapters/blob-store';
import type { LinkSigner } from './domain/link-signer';

/** What the storage service is handed at start-up. */
export interface StoragePorts extends CommonPorts {
  config: StorageConfig;
  blobs: BlobStore;
  signer: LinkSigner;
  /** Guarded HTTP dispatcher for upload by URL (SSRF checks at connect time). */
  fetcher: Dispatcher;
  /** Absolute origin of links (`signedUrl`), e.g. `https://tabula.example.com`. */
  publicUrl: string;
  /** Meta's internal API: a table's context (which base downloadAttachment's table is in). */
  meta: EndpointClient<typeof storageMetaEndpoints>;
  /** Data's internal API: which attachment values a column still holds (downloadAttachment, garbage collector). */
  data: EndpointClient<typeof dataAttachmentEndpoints>;
}
