import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A file of the docs page. */
export interface DocsAsset {
  type: string;
  body: Buffer;
}

/** The swagger-ui-dist files the page loads (the package is pinned in package.json; nothing comes from a CDN). */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/**
 * Starts Swagger UI on the document named by the script tag's `data-url`.
 * A token (from `?token=` or localStorage `tabula-token`) is sent as `xc-auth`
 * so a base's own document, which needs a signed-in user, loads too.
 */
const INIT_SCRIPT = `(function () {
  var script = document.currentScript;
  var token = new URLSearchParams(location.search).get('token') || localStorage.getItem('tabula-token');
  if (token) localStorage.setItem('tabula-token', token);
  window.ui = SwaggerUIBundle({
    url: script.dataset.url, dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
    requestInterceptor: function (req) { if (token && !req.headers['xc-auth'] && !req.headers['xc-token']) req.headers['xc-auth'] = token; return req; }
  });
})();
`;

/** Reads the docs page's files once (lazily) from the installed swagger-ui-dist. */
export class DocsAssets {
  private readonly cache = new Map<string, DocsAsset>();

  constructor(private readonly dir = path.dirname(require.resolve('swagger-ui-dist/package.json'))) {}

  /** The file, or undefined when it is not one of the page's files. */
  get(file: string): DocsAsset | undefined {
    if (file === 'docs-init.js') return { type: 'application/javascript; charset=utf-8', body: Buffer.from(INIT_SCRIPT) };
    // Own keys only: `__proto__` or `constructor` must not reach the object's prototype.
    const type = Object.hasOwn(SWAGGER_FILES, file) ? SWAGGER_FILES[file] : undefined;
    if (!type) return undefined;
    let asset = this.cache.get(file);
    if (!asset) {
      asset = { type, body: readFileSync(path.join(this.dir, file)) };
      this.cache.set(file, asset);
    }
    return asset;
  }
}
