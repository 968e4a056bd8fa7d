import { storageUpload, storageUploadByUrl, storageBaseUsage, storageUploadV2, storageUploadByUrlV2 } from './upload.endpoints';
import { storageDownload, storageSignedDownload, storageDownloadAttachment } from './download.endpoints';

export * from './attachment.schema';
export * from './upload.endpoints';
export * from './download.endpoints';
export * from './storage-internal.endpoints';

/** The storage service's public endpoints. */
export const storageEndpoints = {
  storageUpload, storageUploadByUrl, storageUploadV2, storageUploadByUrlV2, storageBaseUsage, storageDownload, storageSignedDownload, storageDownloadAttachment,
};
