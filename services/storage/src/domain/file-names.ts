import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { errors } from '@tabula/http';

/** Control characters (C0, DEL, C1) and bidi overrides never reach a title. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The title kept for a file: as uploaded, minus control characters, at most 255 characters; never empty. */
export function titleOf(name: string | undefined): string {
  const cleaned = (name ?? '').replace(CONTROL, '').trim().slice(0, 255);
  return cleaned || 'file';
}

function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+/g, '_');
}

/**
 * The on-disk name of a file: the title's base name reduced to
 * `[A-Za-z0-9._-]`, no leading dot, short, plus a random suffix
 * (`<stem>_<rand>.<ext>`) so names never collide or guess.
 */
export function diskNameOf(title: string): string {
  const base = title.split(/[\\/]/).pop() ?? '';
  const ext = ascii(path.extname(base)).replace(/[^A-Za-z0-9]/g, '').slice(0, 16).toLowerCase();
  const stem = ascii(ext ? base.slice(0, -path.extname(base).length) : base).replace(/^[._-]+/, '').slice(0, 64) || 'file';
  return `${stem}_${randomBytes(8).toString('hex')}${ext ? `.${ext}` : ''}`;
}

/**
 * The key prefix of an upload from its `path` parameter: segments of
 * `[A-Za-z0-9._-]` (NocoDB's `noco/<base>/<table>/<column>`); anything that
 * could traverse or needs escaping is a 400, not silently rewritten.
 */
export function prefixOf(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return 'uploads';
  const segments = raw.replace(/\/+$/, '').split('/');
  if (segments.length > 8 || !segments.every((s) => SEGMENT.test(s) && !/^\.+$/.test(s))) {
    throw errors.badRequest(`Invalid upload path '${raw.slice(0, 100)}': use segments of letters, digits, '.', '_' and '-'`);
  }
  return segments.join('/');
}
