import path from 'node:path';
import type { StorageConfig } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

/** The configured blob store (`SVC_STORAGE`). */
export function createBlobStore(config: StorageConfig, dataDir: string): BlobStore {
  if (config.SVC_STORAGE === 's3') {
    if (!config.SVC_S3_ENDPOINT) throw new Error('SVC_STORAGE=s3 needs SVC_S3_ENDPOINT');
    return new S3BlobStore({
      endpoint: config.SVC_S3_ENDPOINT, bucket: config.SVC_S3_BUCKET, region: config.SVC_S3_REGION,
      accessKey: config.SVC_S3_ACCESS_KEY, secretKey: config.SVC_S3_SECRET_KEY, pathStyle: config.SVC_S3_PATH_STYLE,
    });
  }
  return new LocalBlobStore(config.SVC_STORAGE_LOCAL_DIR ?? path.join(dataDir, 'attachments'));
}
