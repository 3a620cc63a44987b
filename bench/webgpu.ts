// `npm run bench:webgpu [-- --full] [--node-only | --browser-only] [--memory] [--only a,b]`: the webgpu device's
// figures (bench/webgpu_suite.ts) in Node on the npm package `webgpu` (Dawn: from node_modules or $ATEN_TS_DAWN, a path
// to its index.js; on chromium's SwiftShader Vulkan driver when no other is given; skipped, saying why, when it is
// missing or finds no adapter), then in a Chromium page on the
// adapter Chromium gives (the system Chromium as in tools/browser/run.ts; `--use-webgpu-adapter=swiftshader`
// unless ATEN_TS_BENCH_GPU=1 asks for the machine's GPU). Each run prints its adapter first: SwiftShader
// figures are not GPU figures. The page needs `npm run build` (it loads dist/bundle/index.js). Output format:
// bench/RESULTS.md, "WebGPU". `--memory` runs instead, in the page, tools/browser/webgpu_memory.ts's MLP for
// 10,000 steps (the batch size cycling, no dispose(), collected before each sample) and prints memory_allocated()
// and memory_reserved() every 500 steps. The page also runs TensorFlow.js's WebGPU backend and jax-js's webgpu
// device (bench/webgpu_others.ts; both bundled here from node_modules, never fetched) and ends with a table of
// the figures the three share, each cell naming the adapter that made it. `--only` picks sections: the suite's
// (lenet, mlp, transformer, matmul, variants, add, latency) and the page's `tfjs`, `jax`.

import { build, transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { findChromium } from '../tools/browser/run.js';
import { findGpu, vulkanEnv } from '../tools/webgpu-node/dawn.js';
import { SECTIONS, runWebGPUBench } from './webgpu_suite.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const full = args.has('--full');
const memory = args.has('--memory');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt < 0 ? null : new Set((process.argv[onlyAt + 1] ?? '').split(','));
for (const name of only ?? []) {
  if (![...SECTIONS, 'tfjs', 'jax'].includes(name))
    throw new Error(`--only: unknown section '${name}' (${[...SECTIONS, 'tfjs', 'jax'].join(', ')})`);
}

async function nodeRun(): Promise<void> {
  const child = process.env['ATEN_TS_BENCH_NODE_CHILD'] === '1';
  if (!child) console.log('== Node (npm package `webgpu`, Dawn)');
  // Dawn's adapter here is the SwiftShader Vulkan driver chromium ships, which the dynamic loader takes only at a
  // process's start (tools/webgpu-node/dawn.ts vulkanEnv): the Node figures come from a child given it.
  const vulkan = child ? null : vulkanEnv(process.env);
  if (vulkan !== null) {
    spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2), '--node-only'], {
      env: { ...process.env, ...vulkan, ATEN_TS_BENCH_NODE_CHILD: '1' },
      stdio: 'inherit',
    });
    return;
  }
  const found = await findGpu();
  if (found.gpu === null) {
    console.log(`skipped: ${found.reason}`);
    return;
  }
  const gpu = found.gpu;
  const aten = await import('../src/index.js');
  const webgpu = await import('../src/webgpu/index.js');
  const { matmulVariants } = await import('../src/webgpu/kernels/LinearAlgebra.js');
  const adapter = await webgpu.init({ gpu });
  await runWebGPUBench(aten, webgpu, { adapter, full, log: (l) => console.log(l), variants: matmulVariants, ...(only ? { only } : {}) });
  console.log('TensorFlow.js / jax-js columns: on the page only');
}

const PAGE = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <script type="importmap">{ "imports": { "aten-ts": "/dist/bundle/index.js" } }</script>
  </head>
  <body>
    <script type="module">
      import * as aten from 'aten-ts';
      import * as webgpu from '/webgpu.js';
      import { runWebGPUBench, CELLS } from '/suite.js';
      import { runTfjs, runJax } from '/others.js';
      import { trainForMemory, checkFlat } from '/memory.js';
      const lines = (globalThis.__lines = []);
      const log = (l) => lines.push(l);
      const ONLY = ONLY_SET;
      const on = (s) => ONLY === null || ONLY.includes(s);
      try {
        const adapter = await webgpu.init();
        if (MEMORY) {
          lines.push('adapter: ' + adapter.vendor + '/' + adapter.architecture);
          const start = performance.now();
          const samples = await trainForMemory(aten, webgpu, 10000, 500);
          lines.push('memory over 10000 steps (batch 16/48/32, no dispose()), ' + ((performance.now() - start) / 10000).toFixed(2) + ' ms/step:');
          for (const s of samples) lines.push('  step ' + s.step + ': allocated ' + s.allocated + ' B, reserved ' + s.reserved + ' B');
          lines.push(checkFlat(samples, 2 << 20));
        } else {
          const columns = [['aten-ts webgpu', await runWebGPUBench(aten, webgpu, { adapter, full: FULL, log, variants: webgpu.matmulVariants, ...(ONLY ? { only: new Set(ONLY) } : {}) })]];
          const quick = /swiftshader/i.test(adapter.vendor + ' ' + adapter.architecture + ' ' + adapter.description) && !FULL;
          for (const [section, name, load, run] of [
            ['tfjs', 'TensorFlow.js 4.22.0 webgpu', () => import('/tfjs.js'), (m, cells) => runTfjs(m.tf, { quick, log }, cells)],
            ['jax', 'jax-js 0.1.25 webgpu', () => import('/jax.js'), (m, cells) => runJax(m, { quick, log }, cells)],
          ]) {
            if (!on(section)) continue;
            const cells = {};
            columns.push([name, cells]);
            try {
              await run(await load(), cells);
            } catch (e) {
              log(name + ' failed: ' + (e && e.stack ? e.stack : String(e)));
            }
          }
          log('');
          log('| ' + ['', ...columns.map(([name]) => name)].join(' | ') + ' |');
          log('|' + ' --- |'.repeat(columns.length + 1));
          for (const row of CELLS) log('| ' + [row, ...columns.map(([, cells]) => cells[row] ?? '-')].join(' | ') + ' |');
        }
      } catch (e) {
        lines.push('failed: ' + (e && e.stack ? e.stack : String(e)));
      }
      globalThis.__done = true;
    </script>
  </body>
</html>
`;

async function browserRun(): Promise<void> {
  console.log('== Chromium page');
  const bundlePath = join(ROOT, 'dist/bundle/index.js');
  if (!existsSync(bundlePath)) {
    console.log('skipped: dist/bundle/index.js does not exist (run `npm run build` first)');
    return;
  }
  let executablePath: string;
  try {
    executablePath = findChromium();
  } catch (e) {
    console.log(`skipped: ${(e as Error).message}`);
    return;
  }
  const bundle = async (contents: string): Promise<string> =>
    (
      await build({
        stdin: { contents, resolveDir: ROOT, loader: 'ts' },
        bundle: true,
        format: 'esm',
        target: 'es2022',
        platform: 'browser',
        external: ['aten-ts'],
        write: false,
        logLevel: 'warning',
      })
    ).outputFiles[0]!.text;
  // The device and its matmul variants' switches (one module instance: bench/webgpu_matmul.ts flips them).
  const device = await bundle(
    "export * from './src/webgpu/index.ts'; export { matmulVariants } from './src/webgpu/kernels/LinearAlgebra.ts';",
  );
  const suite = await bundle("export * from './bench/webgpu_suite.ts';");
  const others = await bundle("export * from './bench/webgpu_others.ts';");
  // TensorFlow.js (tfjs-core with the WebGPU backend registered) and jax-js, from node_modules.
  const tfjs = await bundle(
    "export * as tf from '@tensorflow/tfjs-core'; import '@tensorflow/tfjs-core/dist/register_all_gradients'; import '@tensorflow/tfjs-backend-webgpu';",
  );
  const jax = await bundle("export * from '@jax-js/jax';");
  const files: Record<string, string> = {
    '/': PAGE.replaceAll('FULL', String(full))
      .replace('MEMORY', String(memory))
      .replace('ONLY_SET', only === null ? 'null' : JSON.stringify([...only])),
    '/memory.js': (await transform(readFileSync(join(ROOT, 'tools/browser/webgpu_memory.ts'), 'utf8'), { loader: 'ts', format: 'esm' }))
      .code,
    '/util.js': (await transform(readFileSync(join(ROOT, 'tools/browser/util.ts'), 'utf8'), { loader: 'ts', format: 'esm' })).code,
    '/dist/bundle/index.js': readFileSync(bundlePath, 'utf8'),
    '/webgpu.js': device,
    '/suite.js': suite,
    '/others.js': others,
    '/tfjs.js': tfjs,
    '/jax.js': jax,
  };
  const server = createServer((req, res) => {
    const body = files[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': req.url === '/' ? 'text/html' : 'text/javascript' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const gpuFlags = process.env['ATEN_TS_BENCH_GPU'] === '1' ? [] : ['--use-webgpu-adapter=swiftshader'];
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--js-flags=--expose-gc', ...gpuFlags],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    console.log(`chromium ${browser.version()}`);
    await page.goto(`http://127.0.0.1:${port}/`);
    let printed = 0;
    for (;;) {
      const [lines, done] = (await page.evaluate('[globalThis.__lines ?? [], globalThis.__done === true]')) as [string[], boolean];
      for (; printed < lines.length; printed++) console.log(lines[printed]);
      if (done) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (!args.has('--browser-only') && !memory) await nodeRun();
if (!args.has('--node-only')) await browserRun();
// Dawn keeps the process alive while its device exists; the figures are printed.
process.exit(0);
