import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A file of the web app, read once. */
export interface WebAsset {
  type: string;
  body: Buffer;
  /** Content-hashed file name (Vite's `assets/…-<hash>.js`): cacheable for a year. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The folder the web app was built into (scripts/build-web.mjs): `SVC_WEB_DIR`
 * when set, else `web` beside the running bundle (`dist/<entry>/main.js` →
 * `dist/web`), else `dist/web` under the working directory (sources run by tsx
 * or jest). Undefined when none exists: the gateway then serves no page.
 */
export function webDir(configured: string | undefined, here = __dirname, cwd = process.cwd()): string | undefined {
  const candidates = configured ? [configured] : [path.resolve(here, '..', 'web'), path.resolve(cwd, 'dist', 'web')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
}

/** Serves the built web app's files by URL path, reading each once. */
export class WebAssets {
  private readonly cache = new Map<string, WebAsset | null>();

  constructor(private readonly dir: string | undefined) {}

  /** True when a built app is there. */
  get present(): boolean {
    return this.dir !== undefined;
  }

  /** The file at a URL path (`/assets/index-abc.js`), or undefined (not a file of the app, or outside it). */
  file(urlPath: string): WebAsset | undefined {
    if (!this.dir || urlPath === '/' || urlPath.endsWith('/')) return undefined;
    const cached = this.cache.get(urlPath);
    if (cached !== undefined) return cached ?? undefined;
    const asset = this.read(urlPath);
    // Only hits and a bounded number of misses are remembered (misses are arbitrary client paths).
    if (asset || this.cache.size < 1000) this.cache.set(urlPath, asset ?? null);
    return asset;
  }

  /** index.html: the page every client-side route answers. */
  index(): WebAsset | undefined {
    return this.file('/index.html');
  }

  private read(urlPath: string): WebAsset | undefined {
    let relative: string;
    try { relative = decodeURIComponent(urlPath); } catch { return undefined; }
    const root = this.dir as string;
    const file = path.resolve(root, `.${relative}`);
    if (!file.startsWith(root + path.sep) || relative.includes('\0')) return undefined;
    const type = TYPES[path.extname(file).toLowerCase()];
    if (!type) return undefined;
    try {
      if (!statSync(file).isFile()) return undefined;
      return { type, body: readFileSync(file), immutable: relative.startsWith('/assets/') };
    } catch {
      return undefined;
    }
  }
}
