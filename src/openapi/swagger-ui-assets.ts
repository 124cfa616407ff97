import fs from 'node:fs';
import path from 'node:path';

/**
 * The browsable reference at /docs: swagger-ui's own files from swagger-ui-dist, served by the
 * app (SwaggerModule.setup would need @fastify/static on Fastify). The page runs no inline script,
 * so its content security policy can allow scripts from this origin only.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parley API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    tagsSorter: undefined,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** file name -> content type: the only files /docs/<file> serves. */
const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface Asset {
  body: Buffer | string;
  contentType: string;
}

/** Reads each file once, on first use (the bundle is large and most processes never serve it). */
export class SwaggerUiAssets {
  private readonly cache = new Map<string, Asset>();

  get(name: string): Asset | undefined {
    if (name === 'init.js') return { body: INIT_SCRIPT, contentType: 'application/javascript; charset=utf-8' };
    const contentType = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!contentType) return undefined;
    let asset = this.cache.get(name);
    if (!asset) {
      const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
      asset = { body: fs.readFileSync(path.join(dir, name)), contentType };
      this.cache.set(name, asset);
    }
    return asset;
  }
}
