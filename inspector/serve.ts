// `npm run inspector`: serves the dispatch inspector on localhost (the page built in memory, and the API
// reference from site/api/ when `site/api` exists) and prints the URL. Node-only.
//   npm run inspector            # http://127.0.0.1:5178/
//   npm run inspector -- 0       # any free port

import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_DIR, buildInspectorHtml } from './build.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Starts the server on 127.0.0.1:`port` (0: any free port). */
export async function startInspectorServer(port = 5178, html?: string): Promise<{ server: Server; url: string }> {
  const page = html ?? (await buildInspectorHtml());
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-store' });
      res.end(page);
      return;
    }
    // Static files under site/ (the API reference); never outside it.
    let file = normalize(join(SITE_DIR, path));
    if (file.startsWith(SITE_DIR + sep) && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(SITE_DIR + sep) || !existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(path.startsWith('/api') ? 'The API reference is not built (site/api/): build the API docs first.' : `not found: ${path}`);
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const { port: actual } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${actual}/` };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const port = process.argv[2] === undefined ? 5178 : Number(process.argv[2]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`expected a port number 0..65535, got ${process.argv[2]}`);
  const { url } = await startInspectorServer(port);
  console.log(`aten-ts dispatch inspector: ${url}  (Ctrl+C stops)`);
}
