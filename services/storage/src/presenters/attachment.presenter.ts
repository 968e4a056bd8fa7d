import type { Attachment } from '@tabula/contracts';
import type { ObjectRow } from '../repositories/object.repository';
import { iconOf } from '../domain/mime-of';
import type { StoragePorts } from '../ports';

/** The value a record cell holds for an object: `download/<key>` locally, the object URL on S3. */
export function storedValueOf(ports: StoragePorts, key: string): { path?: string; url?: string } {
  return ports.blobs.kind === 'local' ? { path: `download/${key}` } : { url: ports.blobs.urlOf(key) };
}

/** Fresh signed links of an object: `signedPath` locally, `signedUrl` (absolute) on S3. */
export function signedLinkOf(ports: StoragePorts, key: string): { signedPath?: string; signedUrl?: string } {
  const signedPath = `dltemp/${ports.signer.sign(key)}`;
  return ports.blobs.kind === 'local' ? { signedPath } : { signedUrl: `${ports.publicUrl}/${signedPath}` };
}

/** An object row as the Attachment object (spec "Attachment object"). */
export function presentAttachment(ports: StoragePorts, row: ObjectRow): Attachment {
  return {
    ...storedValueOf(ports, row.key), title: row.title, mimetype: row.mimetype, size: row.size,
    ...signedLinkOf(ports, row.key), icon: iconOf(row.mimetype),
  };
}

/**
 * The blob key an attachment reference names: `download/<key>` (with or
 * without a leading slash or origin), or this store's object URL. Undefined
 * for anything else.
 */
export function keyOfRef(ports: StoragePorts, ref: { path?: string; url?: string }): string | undefined {
  if (typeof ref.path === 'string') {
    const m = /^\/?download\/(.+)$/.exec(ref.path);
    if (m) return m[1];
  }
  if (typeof ref.url === 'string') {
    const prefix = ports.blobs.urlOf('');
    if (prefix && ref.url.startsWith(prefix)) return ref.url.slice(prefix.length);
    const local = `${ports.publicUrl}/download/`;
    if (ref.url.startsWith(local)) return ref.url.slice(local.length);
  }
  return undefined;
}
