// Every pointwise kernel whose JS twin is generated from its kernels.yaml expression (Note [Pointwise twins
// from one expression] in tools/wasm/twins.ts), read from the declarations themselves, so a kernel added to
// the list is tested without a line here: the SIMD kernel against the generated twin (the JS fallback, Note
// [The twin is the fallback]) bit for bit, at every length around the unrolling boundaries and in place, and
// the twin's one-element function (what the strided loops run) against the twin.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import {
  compileKernelsSync,
  getKernelBackend,
  instantiateKernels,
  simdSupported,
  wasmCPUAllocator,
  wasmStorage,
  type Kernels,
} from '../../src/wasm/index.js';
import * as pw from '../../src/wasm/kernels/generated/PointwiseTwins.js';
import { readDeclarations } from '../../tools/wasm/kernels.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const rt = simdSupported() ? instantiateKernels({ initialBytes: 1 << 24, maximumBytes: 1 << 24 }, compileKernelsSync(false, false)) : null;
const LENGTHS = [0, 1, 3, 4, 5, 15, 16, 17, 33, 64, 100, 1027];
const REGION = 16384; // bytes between operands

type Fn = (...args: number[]) => void;
type ElementFn = (...args: number[]) => number;

/** Deterministic values with exact zeros, -0, NaN, ±Infinity, huge and tiny magnitudes. */
function fill(a: Float32Array | Float64Array, seed: number): void {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const u = s / 2 ** 32;
    a[i] =
      i % 17 === 3
        ? 0
        : i % 19 === 5
          ? -0
          : i % 29 === 11
            ? NaN
            : i % 31 === 13
              ? -Infinity
              : i % 23 === 7
                ? (u - 0.5) * 1e30
                : (u - 0.5) * 20;
  }
}

/**
 * Bit patterns, every NaN as one marker: a NaN's sign and payload are unspecified (IEEE 754; wasm's scalar
 * f32.min in the kernel's tail may return a NaN with its sign flipped), as in PyTorch's comparisons.
 */
function bitsOf(a: Float32Array | Float64Array): unknown[] {
  const bits = a instanceof Float32Array ? [...new Uint32Array(a.buffer, a.byteOffset, a.length)] : [...a];
  return bits.map((b, i) => (Number.isNaN(a[i]) ? 'NaN' : b));
}

const list = readDeclarations(ROOT);
const generated = list.filter((d) => d.twin_expr !== undefined);

describe('pointwise twins from one expression', () => {
  it('every pointwise declaration (a count n, pointers, scalars; no result) generates its twin', () => {
    const pointwise = list.filter((d) => {
      if (d.args === undefined || d.returns !== undefined) return false;
      const counts = d.args.split(',').filter((a) => a.includes('usize'));
      return counts.length === 1 && /^\s*n\s*:/.test(counts[0] as string);
    });
    expect(pointwise.map((d) => d.name)).toEqual(generated.map((d) => d.name));
    expect(generated.length).toBeGreaterThanOrEqual(13);
  });

  describe.runIf(rt !== null)('the SIMD kernel gives the generated twin’s bits', () => {
    const wasm = rt?.wasm as unknown as Record<string, Fn>;
    const js = rt?.js as unknown as Record<string, Fn>;
    const twins = pw as unknown as Record<string, ElementFn>;
    const buffer = (): ArrayBuffer => rt?.memory.views().buffer as ArrayBuffer;
    for (const d of generated) {
      for (const t of d.dtypes ?? []) {
        const name = `${t}_${d.name}`;
        const bytes = t === 'f32' ? 4 : 8;
        const view = (addr: number, n: number): Float32Array | Float64Array =>
          bytes === 4 ? new Float32Array(buffer(), addr, n) : new Float64Array(buffer(), addr, n);
        const args = (d.args as string).split(',').map((a) => {
          const [argName, kind] = a.split(':').map((s) => s.trim()) as [string, string];
          return { argName, kind };
        });
        const ptrs = args.filter((a) => a.kind === 'T*');
        const inputs = ptrs.slice(0, -1);
        const scalarChoices = (kind: string): number[] =>
          kind === 'T'
            ? [bytes === 4 ? Math.fround(-2.7182817) : -2.718281828459045, 0.5, -0]
            : kind === 'f64'
              ? [-0.01, Math.fround(-0.01), 3.5, -1e-30]
              : [0];
        // the cross product of the scalars' choices (at most one scalar per pointwise kernel today)
        const scalarSets = args
          .filter((a) => a.kind === 'T' || a.kind === 'f64' || a.kind === 'i32')
          .reduce<number[][]>((sets, a) => sets.flatMap((s) => scalarChoices(a.kind).map((v) => [...s, v])), [[]]);
        it(`${name} = ${d.twin_expr ?? ''}: same bits as its twin, in place, and element by element`, () => {
          const y1 = 64 + inputs.length * REGION;
          const y2 = y1 + REGION;
          const y3 = y2 + REGION;
          for (const n of LENGTHS) {
            for (const scalars of scalarSets) {
              const at = (out: number): number[] => {
                let p = 0;
                let s = 0;
                return args.map((a) =>
                  a.kind === 'usize' ? n : a.kind === 'T*' ? (p++ < inputs.length ? 64 + (p - 1) * REGION : out) : (scalars[s++] as number),
                );
              };
              inputs.forEach((_, k) => fill(view(64 + k * REGION, n), 1 + 7 * k + n));
              wasm[name]?.(...at(y1));
              js[name]?.(...at(y2));
              const want = bitsOf(view(y2, n));
              expect(bitsOf(view(y1, n)), `n ${n} scalars ${scalars.join()}`).toEqual(want);
              // the one-element function, stored into the dtype's array, is the twin
              const op = twins[`${(d.twin as string).replaceAll('{t}', t)}_op`] as ElementFn;
              const direct = view(y3, n);
              const inViews = inputs.map((_, k) => view(64 + k * REGION, n));
              for (let i = 0; i < n; i++) {
                let s = 0;
                const operands = args
                  .filter((a) => a.kind !== 'usize' && a !== ptrs.at(-1))
                  .map((a) => (a.kind === 'T*' ? (inViews[inputs.indexOf(a)] as Float32Array)[i] : scalars[s++]) as number);
                direct[i] = op(...operands);
              }
              expect(bitsOf(direct), `${name}_op, n ${n}`).toEqual(want);
              if (inputs.length > 0) {
                wasm[name]?.(...at(64)); // y = the first input
                expect(bitsOf(view(64, n)), `in place, n ${n}`).toEqual(want);
              }
            }
          }
        });
      }
    }
  });

  // The recipe of src/wasm/README.md ("Adding a kernel") followed once: vneg is one kernels.yaml line, its body
  // in assembly/unary.ts and one line in UnaryOpsKernel.ts's neg spec.
  describe.runIf(getKernelBackend() === 'wasm')('neg through the declared f32_vneg / f64_vneg', () => {
    it('torch.neg calls the kernel of its dtype; int64 takes the scalar loop (its zero has no sign)', () => {
      const x = torch.tensor([0, -0, 1.5, -2, Infinity, NaN, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]); // loads the kernels
      // the stress runs grow the memory on every allocation, which puts back the table wrapped here
      const allocator = wasmCPUAllocator();
      if (allocator === null) throw new Error('the WASM allocator is not loaded');
      const grow = allocator.growOnEveryAllocation;
      allocator.growOnEveryAllocation = false;
      const kernels = wasmStorage.kernels as Kernels;
      const seen: string[] = [];
      wasmStorage.kernels = new Proxy(kernels, {
        get: (target, name: string) => {
          const f = target[name as keyof Kernels] as unknown;
          if (typeof f !== 'function') return f;
          return (...args: unknown[]): unknown => {
            seen.push(name);
            return (f as (...a: unknown[]) => unknown)(...args);
          };
        },
      });
      // on several threads the calls go through the pool, by name
      const parallel = wasmStorage.parallel;
      if (parallel !== null) {
        wasmStorage.parallel = (name, cs, threads) => {
          seen.push(name);
          parallel(name, cs, threads);
        };
      }
      try {
        const y = torch.neg(x.repeat(50));
        expect(seen).toContain('f32_vneg');
        const ys = y.tolist() as number[];
        expect(Object.is(ys[0], -0) && Object.is(ys[1], 0) && ys[2] === -1.5).toBe(true);
        seen.length = 0;
        torch.neg(x.to(torch.float64).repeat(50));
        expect(seen).toContain('f64_vneg');
        seen.length = 0;
        const z = torch.neg(torch.zeros(2000, { dtype: torch.int64 }));
        expect(seen).not.toContain('f64_vneg');
        expect(Object.is((z.tolist() as number[])[0], 0)).toBe(true);
      } finally {
        wasmStorage.kernels = kernels;
        wasmStorage.parallel = parallel;
        allocator.growOnEveryAllocation = grow;
      }
    });
  });
});
