import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { streamUpload } from './s3-stream-upload';
import { assertSafeKey, type BlobStat, type BlobStore, type ByteRange, type PutOptions } from './blob-store';

/** How to reach an S3-compatible store. */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKey?: string;
  secretKey?: string;
  pathStyle: boolean;
}


function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchBucket';
}

/** Objects in one bucket of an S3-compatible store, through the minio client. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: Client;
  private readonly base: URL;
  private bucketReady?: Promise<void>;

  constructor(private readonly settings: S3Settings) {
    this.base = new URL(settings.endpoint);
    const useSSL = this.base.protocol === 'https:';
    this.client = new Client({
      endPoint: this.base.hostname, port: Number(this.base.port) || (useSSL ? 443 : 80), useSSL,
      accessKey: settings.accessKey ?? '', secretKey: settings.secretKey ?? '', region: settings.region,
      pathStyle: settings.pathStyle,
    });
  }

  /** Creates the bucket once when it does not exist. */
  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.settings.bucket))) await this.client.makeBucket(this.settings.bucket, this.settings.region);
    })().catch((err: unknown) => { this.bucketReady = undefined; throw err; });
    return this.bucketReady;
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<void> {
    assertSafeKey(key);
    await this.ensureBucket();
    await streamUpload(this.client, this.settings.bucket, key, body, options.contentType);
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    assertSafeKey(key);
    try {
      if (range) return await this.client.getPartialObject(this.settings.bucket, key, range.start, range.end - range.start + 1);
      return await this.client.getObject(this.settings.bucket, key);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<BlobStat | null> {
    assertSafeKey(key);
    try {
      const s = await this.client.statObject(this.settings.bucket, key);
      return { size: s.size };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.removeObject(this.settings.bucket, key);
  }

  urlOf(key: string): string {
    const origin = this.base.origin;
    return this.settings.pathStyle
      ? `${origin}/${this.settings.bucket}/${key}`
      : `${this.base.protocol}//${this.settings.bucket}.${this.base.host}/${key}`;
  }

  async ping(): Promise<void> {
    await this.ensureBucket();
  }
}
