// `npm run test:browser`: proves the browser bundle (dist/bundle/index.js, from `npm run build`) loads and
// runs the WebAssembly kernels in Chromium. Node-only. Serves the bundle and a test page from a local HTTP
// server (127.0.0.1, random port), opens the page in the system Chromium through playwright-core, and reads
// the results of the in-page checks (tools/browser/page.ts). The page runs twice: without cross-origin
// isolation (no SharedArrayBuffer) and with it (COOP/COEP headers). Exits non-zero on any failed check, page
// error, console error, failed request or timeout. The scenarios (tools/browser/scenarios.ts) run here first, in
// Node on the same bundle; their printed lines are the page's expected output. A tutorials page runs PyTorch's
// Quickstart port (examples/tutorials/quickstart.ts, bundled unchanged) against PyTorch's printed lines in
// test/golden/tutorials.json (tools/browser/tutorials.ts). Builds nothing: run `npm run build` first (`npm test`
// does). Chromium: $ATEN_TS_CHROMIUM, else the first of CHROMIUM_PATHS that exists.

import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { PageResults } from './page.js';
import type { TutorialPageOptions } from './tutorials.js';
import { runScenarios } from './scenarios.js';
import { bundleUser, scratchProject } from '../package/userBundle.js';
import { fixtureFiles, loadFixture } from '../../test/opinfo/harness.js';
import { SAMPLES_PER_DTYPE, type OpinfoEntry, type OpinfoSample } from './webgpu_opinfo.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = join(ROOT, 'dist/bundle/index.js');
const PAGE_DIR = join(ROOT, 'tools/browser');
const DATA_DIR = 'data/fashion-mnist-subset';
/** The tutorials the tutorials page runs (examples/tutorials/<name>.ts), checked against test/golden/tutorials.json. */
const BROWSER_TUTORIALS = ['quickstart'];
const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const TIMEOUT_MS = 120_000;

export class BrowserTestError extends Error {}

/** The system Chromium: $ATEN_TS_CHROMIUM, else the first of CHROMIUM_PATHS (also used by inspector/test/run.ts). */
export function findChromium(): string {
  const fromEnv = process.env['ATEN_TS_CHROMIUM'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new BrowserTestError(`ATEN_TS_CHROMIUM=${fromEnv}: no such file`);
    return fromEnv;
  }
  const found = CHROMIUM_PATHS.find((p) => existsSync(p));
  if (found === undefined) {
    throw new BrowserTestError(
      `no Chromium found (looked at ${CHROMIUM_PATHS.join(', ')}). Install it (Debian/Ubuntu, as root: ` +
        '`apt-get update && apt-get install -y chromium`) or set ATEN_TS_CHROMIUM to a Chromium or Chrome executable.',
    );
  }
  return found;
}

// The test page: a module script that imports the bundle and the checks, and leaves the results (or the
// error that stopped it) in globalThis.__results. The icon link keeps Chromium from requesting /favicon.ico.
const testPage = (isolated: boolean, expected: string): string => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>aten-ts browser test</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <script type="module">
      import * as aten from '/dist/bundle/index.js';
      import { runChecks } from '/tools/browser/page.js';
      globalThis.__results = await runChecks(aten, { isolated: ${isolated}, expected: ${expected} });
    </script>
  </body>
</html>
`;

// The user page: a user's program (`import { torch } from 'aten-ts'; console.log(...)`), bundled by esbuild
// for the browser (tools/package/userBundle.ts), must print what the same bundle prints in Node.
const userPage = (expected: string): string => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>aten-ts user bundle</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <script type="module">
      const lines = [];
      const log = console.log;
      console.log = (...args) => { lines.push(args.join(' ')); log(...args); };
      await import('/user.js');
      console.log = log;
      const want = ${expected};
      const ok = lines.join('\\n') === want;
      const message = ok ? 'prints ' + JSON.stringify(want) + ' as in Node' : 'printed ' + JSON.stringify(lines.join('\\n')) + ', Node ' + JSON.stringify(want);
      globalThis.__results = { checks: [{ name: "user bundle: esbuild bundle of import { torch } from 'aten-ts'", ok, message }], userAgent: navigator.userAgent };
    </script>
  </body>
</html>
`;

// The webgpu page: the device (src/webgpu, bundled with 'aten-ts' external) resolves 'aten-ts' through an
// import map to the page's bundle, so it registers into the same core (tools/browser/webgpu.ts).
// `ATEN_TS_WEBGPU_CHECKS=fallback,transformer` runs only the checks whose names contain one of the words.
const webgpuPage = (): string => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>aten-ts webgpu test</title>
    <link rel="icon" href="data:," />
    <script type="importmap">{ "imports": { "aten-ts": "/dist/bundle/index.js" } }</script>
  </head>
  <body>
    <script type="module">
      import * as aten from 'aten-ts';
      import * as webgpu from '/webgpu.js';
      import { runWebGPUChecks } from '/tools/browser/webgpu.js';
      globalThis.__results = await runWebGPUChecks(aten, webgpu, ${JSON.stringify(process.env['ATEN_TS_WEBGPU_CHECKS'] ?? '')});
    </script>
  </body>
</html>
`;

// The tutorials page: the ports (bundled by bundleTutorial) run on the page's bundle and print PyTorch's lines
// (tools/browser/tutorials.ts).
const tutorialsPage = (options: string): string => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>aten-ts tutorials</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <script type="module">
      import * as aten from '/dist/bundle/index.js';
      import { runTutorialChecks } from '/tools/browser/tutorials.js';
      globalThis.__results = await runTutorialChecks(aten, ${options});
    </script>
  </body>
</html>
`;

/**
 * A tutorial port as one ES module, its code unchanged: 'aten-ts' is the page's bundle and its `node:fs`,
 * `node:os` and `node:path` imports are tools/browser/node_shim.ts (See Note [A tutorial's files in the page]).
 */
async function bundleTutorial(name: string): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, `examples/tutorials/${name}.ts`)],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'page-modules',
        setup(b) {
          b.onResolve({ filter: /^aten-ts$/ }, () => ({ path: '/dist/bundle/index.js', external: true }));
          b.onResolve({ filter: /^node:(fs|os|path)$/ }, () => ({ path: '/tools/browser/node_shim.js', external: true }));
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

/** The tutorials page's options: PyTorch's lines for each of BROWSER_TUTORIALS, and the data files to fetch. */
function tutorialOptions(): TutorialPageOptions {
  const golden = JSON.parse(readFileSync(join(ROOT, 'test/golden/tutorials.json'), 'utf8')) as { tutorials: Record<string, string[]> };
  const expected: Record<string, string[]> = {};
  for (const name of BROWSER_TUTORIALS) {
    const lines = golden.tutorials[name];
    if (lines === undefined) throw new BrowserTestError(`test/golden/tutorials.json has no ${name}`);
    expected[name] = lines;
  }
  const data = readdirSync(join(ROOT, DATA_DIR))
    .filter((f) => f.endsWith('.gz'))
    .map((f) => `/${DATA_DIR}/${f}`);
  return { expected, data };
}

/** src/webgpu as one ES module that imports the core as 'aten-ts'. */
async function bundleWebGPU(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'src/webgpu/index.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    external: ['aten-ts'],
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}

/**
 * The webgpu page's OpInfo samples (tools/browser/webgpu_opinfo.ts): from every fixture of test/golden/opinfo, the
 * float32, float16, int64 and bool value samples PyTorch did not reject, the first SAMPLES_PER_DTYPE of each entry and dtype.
 */
function webgpuOpinfoSamples(): string {
  const entries: OpinfoEntry[] = [];
  for (const file of fixtureFiles()) {
    for (const op of loadFixture(file).ops) {
      const samples: OpinfoSample[] = [];
      for (const dtype of ['float32', 'float16', 'int64', 'bool']) {
        const all = (op.dtypes[dtype] ?? []) as unknown as (OpinfoSample & { result: unknown })[];
        const ok = all.filter((s) => !(typeof s.result === 'object' && s.result !== null && 'error' in s.result));
        for (const s of ok.slice(0, SAMPLES_PER_DTYPE)) {
          const { index, input, args, kwargs, seed, no_values, result } = s;
          // float16: PyTorch's result too (webgpu_opinfo.ts compares with it where the CPU device differs).
          samples.push({
            dtype,
            index,
            input,
            args,
            kwargs,
            seed,
            no_values,
            ...(dtype === 'float16' ? { result: result as OpinfoSample['input'] } : {}),
          });
        }
      }
      if (samples.length > 0) entries.push({ key: op.key, name: op.name, call: op.call, samples });
    }
  }
  return JSON.stringify(entries);
}

/**
 * Serves the test page, the bundle and the transpiled checks (tools/browser/<name>.ts as /tools/browser/<name>.js);
 * `?isolated=1` adds COOP/COEP to the page. `expected` is the scenarios' output in Node, as JSON.
 */
async function startServer(expected: string, user: { bundle: string; printed: string }): Promise<{ server: Server; origin: string }> {
  const bundle = readFileSync(BUNDLE, 'utf8');
  const webgpuBundle = await bundleWebGPU();
  const webgpuOpinfo = webgpuOpinfoSamples();
  const tutorials = tutorialOptions();
  const tutorialBundles = new Map<string, string>();
  for (const name of BROWSER_TUTORIALS) tutorialBundles.set(`/examples/tutorials/${name}.js`, await bundleTutorial(name));
  const dataFiles = new Set(tutorials.data);
  const modules = new Map<string, string>();
  for (const name of readdirSync(PAGE_DIR).filter((f) => f.endsWith('.ts') && f !== 'run.ts')) {
    const source = readFileSync(join(PAGE_DIR, name), 'utf8');
    const js = (await transform(source, { loader: 'ts', format: 'esm', target: 'es2022' })).code;
    modules.set(`/tools/browser/${name.replace(/\.ts$/, '.js')}`, js);
  }
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (url.pathname === '/') {
      const isolated = url.searchParams.get('isolated') === '1';
      const headers: Record<string, string> = isolated
        ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
        : {};
      send(200, 'text/html; charset=utf-8', testPage(isolated, expected), headers);
    } else if (url.pathname === '/webgpu') {
      send(200, 'text/html; charset=utf-8', webgpuPage());
    } else if (url.pathname === '/webgpu.js') {
      send(200, 'text/javascript; charset=utf-8', webgpuBundle);
    } else if (url.pathname === '/webgpu_opinfo.json') {
      send(200, 'application/json', webgpuOpinfo);
    } else if (url.pathname === '/user') {
      send(200, 'text/html; charset=utf-8', userPage(JSON.stringify(user.printed)));
    } else if (url.pathname === '/user.js') {
      send(200, 'text/javascript; charset=utf-8', user.bundle);
    } else if (url.pathname === '/tutorials') {
      send(200, 'text/html; charset=utf-8', tutorialsPage(JSON.stringify(tutorials).replace(/</g, '\\u003c')));
    } else if (tutorialBundles.has(url.pathname)) {
      send(200, 'text/javascript; charset=utf-8', tutorialBundles.get(url.pathname) as string);
    } else if (dataFiles.has(url.pathname)) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(readFileSync(join(ROOT, url.pathname)));
    } else if (url.pathname === '/dist/bundle/index.js') {
      send(200, 'text/javascript; charset=utf-8', bundle);
    } else if (modules.has(url.pathname)) {
      send(200, 'text/javascript; charset=utf-8', modules.get(url.pathname) as string);
    } else {
      send(404, 'text/plain', `not found: ${url.pathname}`);
    }
  };
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Loads the page once; returns its results and every page error, console error and failed request. */
async function runPage(browser: Browser, url: string, timeout = TIMEOUT_MS): Promise<{ results: PageResults | null; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  let stop: (reason: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {}); // reported through `errors`; a page error before the race must not go unhandled
  page.on('pageerror', (e) => {
    errors.push(`page error: ${e.stack ?? e.message}`);
    stop(new BrowserTestError(`page error: ${e.message}`));
  });
  page.on('console', (msg) => {
    const text = `console.${msg.type()}: ${msg.text()}`;
    if (msg.type() === 'error') errors.push(text);
    else if (msg.type() === 'warning') console.log(`  (page) ${text}`);
  });
  // A failed load of the bundle or the checks means the module script never runs: stop waiting at once.
  page.on('requestfailed', (req) => {
    errors.push(`request failed: ${req.url()} (${req.failure()?.errorText ?? '?'})`);
    stop(new BrowserTestError('request failed'));
  });
  page.on('response', (res) => {
    if (res.status() < 400) return;
    errors.push(`HTTP ${res.status()} for ${res.url()}`);
    stop(new BrowserTestError('HTTP error'));
  });
  try {
    await page.goto(url);
    // A string, not a function: tsx's transpiled functions may not survive serialization into the page.
    await Promise.race([page.waitForFunction('globalThis.__results !== undefined', undefined, { timeout }), stopped]);
    const results = (await page.evaluate('globalThis.__results')) as PageResults;
    return { results, errors };
  } catch (e) {
    if (!(e instanceof BrowserTestError)) errors.push(`no results: ${e instanceof Error ? e.message : String(e)}`);
    return { results: null, errors };
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  if (!existsSync(BUNDLE)) throw new BrowserTestError(`${BUNDLE} does not exist: run \`npm run build\` first`);
  const executablePath = findChromium();
  // The expected output of the scenarios: the same code, run here in Node on the same bundle.
  const aten = (await import(pathToFileURL(BUNDLE).href)) as Parameters<typeof runScenarios>[0];
  const expected = runScenarios(aten);
  console.log('browser: scenarios in Node (the expected output)');
  for (const [name, lines] of Object.entries(expected)) {
    const threw = lines.find((l) => l.startsWith('threw '));
    if (threw !== undefined) throw new BrowserTestError(`scenario ${name} failed in Node: ${threw}`);
    console.log(`  ${name}: ${lines.length} lines`);
  }
  // A user's program bundled for the browser; what it prints in Node is what it must print in the page.
  const userDir = scratchProject();
  let user: { bundle: string; printed: string };
  try {
    const out = join(userDir, 'user.browser.mjs');
    bundleUser(userDir, 'user.mjs', out, 'browser', true);
    user = { bundle: readFileSync(out, 'utf8'), printed: execFileSync(process.execPath, [out], { encoding: 'utf8' }).trim() };
  } finally {
    rmSync(userDir, { recursive: true, force: true });
  }
  console.log(`browser: user bundle prints ${JSON.stringify(user.printed)} in Node`);
  const { server, origin } = await startServer(JSON.stringify(expected).replace(/</g, '\\u003c'), user);
  let browser: Browser | null = null;
  let passed = 0;
  let failed = 0;
  try {
    // WebGPU on SwiftShader (a CPU adapter Debian's chromium ships) for the webgpu page; the others ignore it.
    browser = await chromium.launch({
      executablePath,
      headless: true,
      // --expose-gc: the webgpu page's memory check collects before it samples (tools/browser/webgpu_memory.ts).
      args: ['--no-sandbox', '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--js-flags=--expose-gc'],
    });
    const version = browser.version();
    console.log(`browser: chromium ${version} (${executablePath}), serving ${origin}`);
    const pages = [
      { label: 'not isolated', path: '/' },
      { label: 'cross-origin isolated', path: '/?isolated=1' },
      { label: 'user bundle', path: '/user' },
      // SwiftShader runs the device on the CPU: LeNet's steps take ~2 s each there, a loaded machine more.
      { label: 'webgpu device (SwiftShader)', path: '/webgpu', timeout: 4 * TIMEOUT_MS },
      { label: `tutorials (${BROWSER_TUTORIALS.join(', ')})`, path: '/tutorials' },
    ];
    // `ATEN_TS_BROWSER_PAGES=webgpu,tutorials` runs only the pages whose path contains one of the names (for work on one page).
    const only = process.env['ATEN_TS_BROWSER_PAGES']?.split(',').filter((s) => s !== '');
    for (const { label, path, timeout } of pages as { label: string; path: string; timeout?: number }[]) {
      if (only !== undefined && only.length > 0 && !only.some((name) => path.includes(name))) continue;
      const start = performance.now();
      const { results, errors } = await runPage(browser, `${origin}${path}`, timeout);
      console.log(`browser: page ${label} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
      for (const c of results?.checks ?? []) {
        if (c.ok) passed++;
        else failed++;
        console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.message}`);
      }
      if (results !== null && results.checks.length === 0) errors.push('the page ran no checks');
      for (const e of errors) {
        failed++;
        console.log(`  FAIL ${e}`);
      }
    }
    console.log(`browser: ${passed} passed, ${failed} failed (chromium ${version})`);
    return failed === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// Run only as the entry point: inspector/test/run.ts imports findChromium from here.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(
        `browser: FAILED: ${e instanceof BrowserTestError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      process.exitCode = 1;
    },
  );
}
