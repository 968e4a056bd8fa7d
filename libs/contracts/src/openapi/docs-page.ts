/** The docs page of a document at `specUrl` (gateway: /api/docs; meta: a base's docs). Its files are served by the gateway under /api/docs/. */
export function docsPageHtml(title: string, specUrl: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/docs-init.js" data-url="${esc(specUrl)}"></script>
</body>
</html>
`;
}

