import type { Context } from 'koa';
import { appError } from '@tabula/http';
import type { ByteRange } from '../adapters/blob-store';
import type { ObjectRow } from '../repositories/object.repository';
import type { StoragePorts } from '../ports';

/** Types a browser may show inline: raster images and PDF; never SVG, HTML or anything scriptable. */
const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf']);

/** Sandboxed and script-free, whatever the bytes turn out to be. */
export const FILE_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range); undefined when absent or multi-range (served whole). */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return header.includes(',') ? undefined : 'unsatisfiable';
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** `attachment; filename="ascii"; filename*=UTF-8''<utf8>` (or inline for previewable types). */
export function dispositionOf(row: ObjectRow): string {
  const kind = PREVIEWABLE.has(row.mimetype) ? 'inline' : 'attachment';
  const ascii = row.title.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const utf8 = encodeURIComponent(row.title).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/**
 * Streams an object with the safety headers (nosniff, CSP, disposition) and
 * Range support (206 / 416). No header is ever taken from the request's query.
 */
export async function serveObject(ports: StoragePorts, ctx: Context, row: ObjectRow): Promise<void> {
  const range = parseRange(ctx.get('range') || undefined, row.size);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', FILE_CSP);
  ctx.set('Content-Disposition', dispositionOf(row));
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('ETag', `"${row.checksum}"`);
  ctx.set('Cache-Control', row.scope === 'public' ? 'public, max-age=3600' : 'private, no-store');
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${row.size}`);
    throw appError('ERR_RANGE_NOT_SATISFIABLE', 'Range not satisfiable');
  }
  const stream = await ports.blobs.get(row.key, range);
  if (!stream) throw appError('ERR_FILE_NOT_FOUND', 'File not found');
  ctx.type = row.mimetype;
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${row.size}`);
    ctx.length = range.end - range.start + 1;
  } else {
    ctx.status = 200;
    ctx.length = row.size;
  }
  ctx.body = stream;
}
