// `npm run build:inspector`: bundles the inspector page and aten-ts into ONE classic inline script (esbuild,
// IIFE) inside site/index.html, so the page opens from disk (file:// forbids module imports of other
// files) and offline. The WebAssembly kernels are embedded in the bundle as base64 (src/wasm), so nothing
// else is fetched. Writes only site/index.html: site/api/ belongs to the API docs build. Node-only.

import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const INSPECTOR_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(INSPECTOR_DIR, '..');
export const SITE_DIR = join(ROOT, 'site');

/** The page: the stylesheet and the bundled script inline. */
export async function buildInspectorHtml(): Promise<string> {
  const result = await build({
    entryPoints: [join(INSPECTOR_DIR, 'src/main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  const js = (result.outputFiles[0]?.text ?? '').replace(/<\/(script)/gi, '<\\/$1');
  const css = readFileSync(join(INSPECTOR_DIR, 'src/style.css'), 'utf8');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>aten-ts dispatch inspector</title>
    <link rel="icon" href="data:," />
    <style>
${css}
    </style>
  </head>
  <body>
    <noscript>The dispatch inspector runs aten-ts in the page: it needs JavaScript.</noscript>
    <p>Loading aten-ts…</p>
    <script>
${js}
    </script>
  </body>
</html>
`;
}

/** Writes `<outDir>/index.html`; returns its path. */
export async function writeInspectorSite(outDir = SITE_DIR): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'index.html');
  writeFileSync(file, await buildInspectorHtml());
  return file;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const file = await writeInspectorSite(process.argv[2] ?? SITE_DIR);
  console.log(`inspector: wrote ${file} — open it in a browser (file:// works)`);
}
