// `npm run test:inspector`: the dispatch inspector in Chromium. Builds the page in memory (inspector/build.ts),
// serves it (inspector/serve.ts) and opens it in the system Chromium (found by tools/browser/run.ts) through
// playwright-core: DOM assertions for each panel and keyboard navigation (inspector/test/panels.ts), the
// static build opened from file://, and screenshots of the four panels compared with the committed references
// in inspector/test/screenshots/ (see Note [Screenshot tolerance]). `--update-screenshots` rewrites them.
// Exits non-zero on any failed check, page error or console error. Node-only.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../tools/browser/run.js';
import { INSPECTOR_DIR, buildInspectorHtml } from '../build.js';
import { startInspectorServer } from '../serve.js';
import { Checks, MAX_DIFF_RATIO, diffRatio, expect, expectEqual, text } from './harness.js';
import { callsChecks, diffChecks, keySetsChecks, keyboardChecks, operatorsChecks } from './panels.js';

const SCREENSHOT_DIR = join(INSPECTOR_DIR, 'test/screenshots');
const VIEWPORT = { width: 1280, height: 900 };
const update = process.argv.includes('--update-screenshots');

/** A fresh page with the fixed viewport; every page error and console error is collected in `errors`. */
async function openPage(context: BrowserContext, url: string, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return page;
}

/** Screenshots of the four panels of a freshly loaded page, compared with (or written to) the references. */
async function screenshots(c: Checks, page: Page): Promise<void> {
  c.section(update ? 'Screenshots (updating the references)' : 'Screenshots');
  const shots: { name: string; tab: string; prepare?: () => Promise<void> }[] = [
    { name: 'operators', tab: 'operators' },
    {
      name: 'keysets',
      tab: 'keysets',
      prepare: async () => {
        await page.check('#ks-requires-grad');
      },
    },
    {
      name: 'calls',
      tab: 'calls',
      prepare: async () => {
        await page.fill('#calls-code', 'torch.add(x, y).sum().backward()');
        await page.click('#calls-run');
      },
    },
    {
      name: 'diff',
      tab: 'diff',
      prepare: async () => {
        await page.check('#diff-sample-fallback');
        await page.click('#diff-load');
      },
    },
  ];
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const s of shots) {
    await c.check(s.name, async () => {
      await page.click(`#tab-${s.tab}`);
      await s.prepare?.();
      await page.mouse.move(0, 0);
      // Keep focus rings out of the picture: focus the panel itself, which draws no ring until keyboard use.
      await page.evaluate('document.activeElement && document.activeElement.blur()');
      const png = await page.screenshot({ animations: 'disabled', caret: 'hide', mask: [page.locator('.time, .volatile')] });
      const file = join(SCREENSHOT_DIR, `${s.name}.png`);
      if (update) {
        writeFileSync(file, png);
        return `wrote ${file}`;
      }
      let reference: Buffer;
      try {
        reference = readFileSync(file);
      } catch {
        throw new Error(`no reference ${file}: run \`npm run test:inspector -- --update-screenshots\``);
      }
      const { ratio, sizeMatch } = diffRatio(png, reference);
      if (!sizeMatch || ratio > MAX_DIFF_RATIO) {
        const failed = join(tmpdir(), `inspector-${s.name}-actual.png`);
        writeFileSync(failed, png);
        throw new Error(
          `${sizeMatch ? `${(ratio * 100).toFixed(2)}% of pixels differ (max ${MAX_DIFF_RATIO * 100}%)` : 'size differs'}; actual: ${failed}`,
        );
      }
      return `${(ratio * 100).toFixed(3)}% of pixels differ`;
    });
  }
}

async function staticBuild(c: Checks, context: BrowserContext, html: string, errors: string[]): Promise<void> {
  c.section('Static build (file://)');
  const dir = mkdtempSync(join(tmpdir(), 'aten-ts-inspector-'));
  try {
    const file = join(dir, 'index.html');
    writeFileSync(file, html);
    await c.check('opens from disk, fetches nothing else, and runs aten-ts in the page', async () => {
      const requests: string[] = [];
      context.on('request', (r) => requests.push(r.url()));
      const page = await openPage(context, pathToFileURL(file).href, errors);
      expect((await text(page, '#op-count')).includes('operators'), 'operator count shown');
      await page.click('#tab-calls');
      await page.click('#calls-run');
      expect(
        (await page.locator('#calls-tree tbody tr[data-op="aten::add.Tensor"]').count()) === 2,
        'add recorded twice (call + redispatch)',
      );
      expectEqual(await page.evaluate('location.protocol'), 'file:', 'protocol');
      expectEqual(requests, [pathToFileURL(file).href], 'requests (works offline)');
      // One classic inline script: no module script, no src (Chromium blocks module imports from file://).
      expectEqual(html.match(/<script\b[^>]*>/g), ['<script>'], 'script tags of the page');
      await page.close();
      return `${(html.length / 1e6).toFixed(2)} MB page`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const html = await buildInspectorHtml();
  const { server, url } = await startInspectorServer(0, html);
  const c = new Checks();
  const errors: string[] = [];
  let browser: Browser | null = null;
  try {
    const executablePath = findChromium();
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--font-render-hinting=none'] });
    console.log(`inspector: chromium ${browser.version()} (${executablePath}), serving ${url}`);
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, reducedMotion: 'reduce', colorScheme: 'light' });
    const page = await openPage(context, url, errors);
    await screenshots(c, page);
    // Back to the initial state without a reload (a page load costs seconds on a busy machine).
    await page.click('#diff-unload');
    await page.click('#tab-keysets');
    await page.uncheck('#ks-requires-grad');
    await operatorsChecks(c, page);
    await keySetsChecks(c, page);
    await callsChecks(c, page);
    await diffChecks(c, page);
    await keyboardChecks(c, page);
    await page.close();
    await staticBuild(c, context, html, errors);
    await context.close();
  } finally {
    await browser?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  for (const e of errors) console.log(`  FAIL ${e}`);
  const failed = c.results.filter((r) => !r.ok).length + errors.length;
  console.log(
    `inspector: ${c.results.length - failed + errors.length} passed, ${failed} failed (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`inspector: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  },
);
