import type { Readable } from 'node:stream';

/** A byte range, inclusive at both ends (HTTP `Range` semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a put needs besides the bytes. */
export interface PutOptions {
  contentType: string;
}

/** The stored object's size. */
export interface BlobStat {
  size: number;
}

/**
 * The blob store port: where attachment bytes live. Keys are already safe
 * (`[A-Za-z0-9._-]` segments joined by `/`). A put either stores the whole
 * stream or nothing (a failed or aborted stream leaves no object, no temp file).
 */
export interface BlobStore {
  /** `local` or `s3`: decides the Attachment shape (`path` or `url`). */
  readonly kind: 'local' | 's3';
  put(key: string, body: Readable, options: PutOptions): Promise<void>;
  /** The object's bytes (or a range of them); null when missing. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<BlobStat | null>;
  /** Removes the object; missing objects are fine. */
  delete(key: string): Promise<void>;
  /** The object's public URL (external storage only). */
  urlOf(key: string): string | undefined;
  /** Whether the store answers (readiness). */
  ping(): Promise<void>;
}

/** Keys the stores accept: safe segments, no dot-only segment, no leading slash. */
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}){0,15}$/;

/** True for a key made of safe segments (the last line of defence against traversal). */
export function isSafeKey(key: string): boolean {
  return key.length <= 1024 && SAFE_KEY.test(key);
}

/** Throws unless the key is safe. */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`unsafe blob key '${key.slice(0, 100)}'`);
}
