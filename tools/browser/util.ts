// Shared by the browser test's checks (tools/browser/page.ts and the modules it imports): the result types,
// assert, the fixed-LCG inputs and the float comparisons. No value imports: the page loads it transpiled.

type Tensor = import('../../src/index.js').Tensor;

/** Registers a check: `body` returns a short description of what it compared, or throws to fail. */
export type Check = (name: string, body: () => string) => void;

/** One check's outcome, as the page reports it to run.ts. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

/** What the page leaves in `globalThis.__results` when it is done. */
export interface PageResults {
  readonly checks: CheckResult[];
  readonly userAgent: string;
}

/** How run.ts loaded the page: with cross-origin isolation headers (COOP/COEP) or without. */
export interface PageOptions {
  readonly isolated: boolean;
  /** Each scenario's lines as Node printed them (tools/browser/scenarios.ts, run by run.ts). */
  readonly expected: Readonly<Record<string, readonly string[]>>;
}

export class CheckFailure extends Error {}

export function assert(cond: boolean, message: string): asserts cond {
  if (!cond) throw new CheckFailure(message);
}

/** Float32 values from a fixed LCG in [lo, hi), so every run and both backends see the same inputs. */
export function values(n: number, seed: number, lo = -2, hi = 2): number[] {
  let s = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(Math.fround(lo + ((hi - lo) * s) / 2 ** 32));
  }
  return out;
}

export function rows(flat: readonly number[], cols: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += cols) out.push(flat.slice(i, i + cols));
  return out;
}

export const flatValues = (t: Tensor): number[] => t.reshape(-1).tolist() as number[];

/** Largest |got - want| / max(1, |want|) over the elements; fails on length mismatch or non-finite values. */
export function maxError(got: readonly number[], want: readonly number[]): number {
  assert(got.length === want.length, `length ${got.length}, expected ${want.length}`);
  let worst = 0;
  for (let i = 0; i < got.length; i++) {
    const g = got[i] as number;
    const w = want[i] as number;
    assert(Number.isFinite(g), `element ${i} is ${g}, expected ${w}`);
    worst = Math.max(worst, Math.abs(g - w) / Math.max(1, Math.abs(w)));
  }
  return worst;
}

export function close(got: readonly number[], want: readonly number[], tol: number): string {
  const err = maxError(got, want);
  assert(err <= tol, `max relative error ${err.toExponential(2)} > ${tol.toExponential(0)}`);
  return `${got.length} values, max relative error ${err.toExponential(2)} <= ${tol.toExponential(0)}`;
}

/** Whether the backends agree: bit for bit, or within `tol` (relative, as maxError). */
export function agree(wasm: readonly number[], js: readonly number[], tol: number): string {
  const err = maxError(wasm, js);
  assert(err <= tol, `max relative difference ${err.toExponential(2)} > ${tol.toExponential(0)}`);
  const a = new Uint32Array(new Float32Array(wasm).buffer);
  const b = new Uint32Array(new Float32Array(js).buffer);
  const differ = a.filter((bits, i) => bits !== b[i]).length;
  return differ === 0
    ? `${wasm.length} float32 values identical`
    : `${differ} of ${wasm.length} float32 values differ, max relative difference ${err.toExponential(2)} <= ${tol.toExponential(0)}`;
}

/** a @ b in plain JS (double accumulation). */
export function matmulJs(a: readonly number[][], b: readonly number[][]): number[][] {
  const k = b.length;
  const n = (b[0] as number[]).length;
  return a.map((row) => {
    const out = new Array<number>(n).fill(0);
    for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) out[j] = (out[j] as number) + (row[p] as number) * (b[p] as number[])[j]!;
    return out;
  });
}
