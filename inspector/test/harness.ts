// The inspector tests' small harness: named checks that record pass/fail with a message, page helpers
// that take code as strings (tsx-transpiled functions may not survive serialization into the page, see
// tools/browser/run.ts), and the screenshot comparison. Node-only.

import { inflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

export class Checks {
  readonly results: CheckResult[] = [];
  private group = '';

  private t0 = performance.now();

  section(name: string): void {
    this.group = name;
    console.log(`inspector: ${name} (at ${((performance.now() - this.t0) / 1000).toFixed(1)} s)`);
  }

  /** Runs `body`; a thrown error or a returned non-empty failure list fails the check. */
  async check(name: string, body: () => Promise<string | void>): Promise<void> {
    const full = `${this.group}: ${name}`;
    try {
      const message = (await body()) ?? '';
      this.results.push({ name: full, ok: true, message });
      console.log(`  ok   ${name}${message === '' ? '' : `: ${message}`}`);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.results.push({ name: full, ok: false, message });
      console.log(`  FAIL ${name}: ${message}`);
    }
  }
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

export function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

/** Evaluates an expression (a string) in the page. */
export async function evalIn<T>(page: Page, expr: string): Promise<T> {
  return (await page.evaluate(expr)) as T;
}

/** Attribute `attr` of every element matching `selector`, in document order. */
export async function attrs(page: Page, selector: string, attr: string): Promise<(string | null)[]> {
  return evalIn(page, `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.getAttribute(${JSON.stringify(attr)}))`);
}

export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').trim();
}

/** Tolerances of the screenshot comparison: see Note [Screenshot tolerance]. */
export const PIXEL_TOLERANCE = 48;
export const MAX_DIFF_RATIO = 0.01;

// Note [Screenshot tolerance]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// References are taken at a fixed viewport (1280×900), deviceScaleFactor 1, reduced motion, with the page's
// own CSS switching transitions and animations off and only the generic `sans-serif`/`monospace` families.
// Text anti-aliasing and hinting still differ between Chromium builds and font packages, so a pixel counts
// as different only when a channel differs by more than PIXEL_TOLERANCE (of 255), and the screenshots match
// while at most MAX_DIFF_RATIO of the pixels differ: a moved table, a changed colour or a missing panel
// changes far more. Timings and autograd sequence numbers are masked (they change from run to run).

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) to RGBA pixels. */
export function decodePng(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colorType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const v = raw[src + x] as number;
      const a = x >= channels ? (out[row + x - channels] as number) : 0;
      const b = y > 0 ? (out[row - stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (out[row - stride + x - channels] as number) : 0;
      let p: number;
      if (filter === 0) p = 0;
      else if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else {
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[row + x] = (v + p) & 255;
    }
  }
  if (channels === 4) return { width, height, rgba: out };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < out.length; i += 3, j += 4) {
    rgba[j] = out[i] as number;
    rgba[j + 1] = out[i + 1] as number;
    rgba[j + 2] = out[i + 2] as number;
    rgba[j + 3] = 255;
  }
  return { width, height, rgba };
}

/** The fraction of pixels whose largest channel difference exceeds PIXEL_TOLERANCE (1 when sizes differ). */
export function diffRatio(actual: Buffer, reference: Buffer): { ratio: number; sizeMatch: boolean } {
  const a = decodePng(actual);
  const b = decodePng(reference);
  if (a.width !== b.width || a.height !== b.height) return { ratio: 1, sizeMatch: false };
  let differing = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    let d = 0;
    for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs((a.rgba[i + k] as number) - (b.rgba[i + k] as number)));
    if (d > PIXEL_TOLERANCE) differing++;
  }
  return { ratio: differing / (a.width * a.height), sizeMatch: true };
}
