// The JS fallback is the kernel's twin (Note [The twin is the fallback]): with the WASM kernels taken away
// (as for storage in the JS heap, or the 'js' backend) the operators give the SIMD kernels' bits. And one
// rule for float sums (Note [One rule for float sums]): a strided float32 run sums in the same cascade as
// its contiguous copy, on either path.
import { afterEach, describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { getKernelBackend, wasmStorage, type Kernels } from '../../src/wasm/index.js';
import * as ref from '../../src/wasm/kernels/reference.js';
import * as pw from '../../src/wasm/kernels/generated/PointwiseTwins.js';

/** The float32 bit patterns of a tensor's values. */
function bits(t: Tensor): number[] {
  const v = Float32Array.from(t.contiguous().reshape(-1).tolist() as number[]);
  return [...new Uint32Array(v.buffer)];
}

/** `f` computed with the WASM kernels, then with every kernel call falling back to JS. */
function bothPaths(f: () => Tensor): [number[], number[]] {
  const kernels = wasmStorage.kernels as Kernels;
  const simd = bits(f());
  wasmStorage.kernels = null;
  try {
    return [simd, bits(f())];
  } finally {
    wasmStorage.kernels = kernels;
  }
}

describe.runIf(getKernelBackend() === 'wasm')('the JS fallback gives the SIMD kernels’ bits', () => {
  const saved = wasmStorage.kernels;
  afterEach(() => {
    wasmStorage.kernels = saved;
  });
  torch.manualSeed(0);
  // Lengths past every unrolling boundary, and values whose float32 exp / sum round differently in double.
  const x = torch.randn(1027).mul(10);
  const y = torch.randn(1027).add(0.5);
  const big = torch.randn(70000);

  const cases: [string, () => Tensor][] = [
    ['add', () => torch.add(x, y)],
    ['sub', () => torch.sub(x, y)],
    ['mul', () => torch.mul(x, y)],
    ['div', () => torch.div(x, y)],
    ['add, alpha', () => torch.add(x, y, { alpha: 0.3 })],
    ['add a scalar', () => torch.add(x, 0.1)],
    ['mul by a scalar', () => torch.mul(x, 0.1)],
    ['div by a scalar', () => torch.div(x, 0.3)],
    ['neg', () => torch.neg(x)],
    ['exp', () => torch.exp(x)],
    ['sigmoid', () => torch.sigmoid(x)],
    ['relu', () => torch.relu(x)],
    ['softmax', () => torch.softmax(x.reshape(13, 79), 1)],
    ['sum', () => x.sum()],
    ['sum of 70000 (two chunks)', () => big.sum()],
    ['sum over a dim', () => x.narrow(0, 0, 1020).reshape(20, 51).sum(1)],
    ['sums of 10 (no whole step)', () => x.narrow(0, 0, 1020).reshape(102, 10).sum(1)],
  ];
  for (const [name, f] of cases) {
    it(name, () => {
      const [simd, js] = bothPaths(f);
      expect(js).toEqual(simd);
    });
  }

  it('float32 exp takes the kernel’s exp on the JS path too, not Math.exp (which differs in the last bit)', () => {
    const v = x.tolist() as number[];
    const got = bothPaths(() => torch.exp(x))[1];
    const twin = new Float32Array(v.length);
    pw.f32_vexp(v.length, Float32Array.from(v), 0, twin, 0);
    expect(got).toEqual([...new Uint32Array(twin.buffer)]);
    expect(v.some((a, i) => Math.fround(Math.exp(a)) !== twin[i])).toBe(true);
  });
});

describe('one rule for float sums', () => {
  it('a strided float32 run sums in the cascade of its contiguous copy, in float32', () => {
    torch.manualSeed(1);
    const m = torch.randn(600, 3).mul(100);
    const col = m.select(1, 1); // stride 3
    expect(bits(col.sum())).toEqual(bits(col.contiguous().sum()));
    expect(bits(m.sum(0))).toEqual(bits(m.t().contiguous().sum(1)));
    // The cascade in float32, not a double sum rounded once: they differ on these values.
    const v = Float32Array.from(col.tolist() as number[]);
    expect(col.sum().item()).toBe(ref.f32_rsum(v.length, v, 0));
    let d = 0;
    for (const a of v) d += a;
    expect(Math.fround(d)).not.toBe(col.sum().item());
  });
});
