// mime-types (a koa dependency) ships no types
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mimeTypes = require('mime-types') as { lookup(name: string): string | false };

/** The MIME type of a file: the declared one when specific, else guessed from the name. */
export function mimeOf(declared: string | undefined, title: string): string {
  const clean = (declared ?? '').trim().toLowerCase();
  if (/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(clean) && clean !== 'application/octet-stream') return clean;
  return mimeTypes.lookup(title) || 'application/octet-stream';
}

const ICONS: [RegExp, string][] = [
  [/^image\//, 'mdi-file-image'], [/^application\/pdf$/, 'mdi-file-pdf-box'], [/^video\//, 'mdi-file-video'],
  [/^audio\//, 'mdi-file-music'], [/^text\//, 'mdi-file-document'], [/zip|compressed|tar|gzip/, 'mdi-zip-box'],
  [/spreadsheet|excel|csv/, 'mdi-file-excel'], [/word|document/, 'mdi-file-word'],
];

/** Icon hint for clients (NocoDB's mdi names), undefined when the type has none. */
export function iconOf(mimetype: string): string | undefined {
  return ICONS.find(([re]) => re.test(mimetype))?.[1];
}
