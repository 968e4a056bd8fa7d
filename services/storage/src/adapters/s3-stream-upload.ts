import type { Readable } from 'node:stream';
import type { Client } from 'minio';

/** S3's smallest part (except the last): the most one upload holds in memory. */
export const PART_SIZE = 5 * 1024 * 1024;

/** Reads the stream into parts of PART_SIZE bytes (the last may be shorter), one at a time. */
async function* parts(body: Readable): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    let buf = chunk as Buffer;
    while (size + buf.length >= PART_SIZE) {
      const take = PART_SIZE - size;
      chunks.push(buf.subarray(0, take));
      yield Buffer.concat(chunks);
      buf = buf.subarray(take);
      chunks = [];
      size = 0;
    }
    if (buf.length) { chunks.push(buf); size += buf.length; }
  }
  if (size > 0) yield Buffer.concat(chunks);
}

/**
 * Streams an object of unknown length to S3 holding one part in memory: a
 * body shorter than a part is one PUT; a longer one a multipart upload that
 * is aborted (nothing stored) when the stream fails.
 */
export async function streamUpload(client: Client, bucket: string, key: string, body: Readable, contentType: string): Promise<void> {
  const iterator = parts(body);
  const first = await iterator.next();
  const headers = { 'Content-Type': contentType };
  if (first.done || first.value.length < PART_SIZE) {
    const buf = first.done ? Buffer.alloc(0) : first.value;
    const rest = await iterator.next();
    if (rest.done) {
      await client.putObject(bucket, key, buf, buf.length, headers);
      return;
    }
  }
  const uploadId = await client.initiateNewMultipartUpload(bucket, key, headers);
  try {
    const etags: { part: number; etag: string }[] = [];
    const send = async (payload: Buffer) => {
      const part = etags.length + 1;
      const res = await client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} }, payload);
      etags.push({ part, etag: res.etag });
    };
    await send(first.value as Buffer);
    for await (const payload of iterator) await send(payload);
    await client.completeMultipartUpload(bucket, key, uploadId, etags);
  } catch (err) {
    await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    throw err;
  }
}
