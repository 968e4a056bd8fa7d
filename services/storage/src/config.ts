import { z } from 'zod';
import { envBoolean, envInt } from '@tabula/config';

const MIB = 1024 * 1024;

/** Settings of the storage service (README: Environment, storage). */
export const storageConfigSchema = z.object({
  /** Blob backend: `local` (files under DATA_DIR/attachments) or `s3` (any S3-compatible store, through minio). */
  SVC_STORAGE: z.enum(['local', 's3']).default('local'),
  /** Local backend root; defaults to `<DATA_DIR>/attachments`. */
  SVC_STORAGE_LOCAL_DIR: z.string().optional(),
  /** S3 endpoint URL, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://minio:9000`. */
  SVC_S3_ENDPOINT: z.string().url().optional(),
  SVC_S3_BUCKET: z.string().min(3).default('tabula-attachments'),
  SVC_S3_REGION: z.string().default('us-east-1'),
  SVC_S3_ACCESS_KEY: z.string().optional(),
  SVC_S3_SECRET_KEY: z.string().optional(),
  /** Path-style addressing (`endpoint/bucket/key`), needed by MinIO and most self-hosted stores. */
  SVC_S3_PATH_STYLE: envBoolean(true),
  /** Largest file accepted, in bytes, enforced while streaming (20 MiB). */
  SVC_ATTACHMENT_FIELD_SIZE: envInt(20 * MIB, 1),
  /** Lifetime of `/dltemp` links, in seconds. */
  SVC_ATTACHMENT_EXPIRE_SECONDS: envInt(7200, 10),
  /** Former key of the `/dltemp` HMAC (before SVC_ENCRYPTION_KEYS): verifies links signed before, for one link lifetime after start. */
  SVC_ATTACHMENT_SIGNING_KEY: z.string().min(16).optional(),
  /** Upload by URL may reach loopback and private addresses (development, tests); link-local and metadata stay refused. */
  SVC_ALLOW_LOCAL_UPLOADS: envBoolean(false),
  /** Upload by URL: whole-transfer timeout per URL. */
  SVC_UPLOAD_BY_URL_TIMEOUT_MS: envInt(30_000, 100),
  /** A file no record references is deleted after this many seconds (24 h). */
  SVC_ATTACHMENT_GC_GRACE_SECONDS: envInt(24 * 3600, 1),
  /** How often the garbage collector runs, in seconds (0: never). */
  SVC_ATTACHMENT_GC_INTERVAL_SECONDS: envInt(3600, 0),
});

export type StorageConfig = z.infer<typeof storageConfigSchema>;
