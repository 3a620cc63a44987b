// What the OpInfo sweep (test/opinfo/, fft-*.json.gz) does not reach of torch.fft: lengths with a large prime
// factor (Bluestein) and long mixed-radix lengths against a direct DFT, round trips of every transform pair
// and norm mode, Parseval's identity for 'ortho', the real-input gradients on a length op_db's samples do not
// use, and the argument errors (PyTorch 2.13's texts).
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import { plan, transform } from '../../src/kernels/PocketFFT.js';
import type { Tensor } from '../../src/api/index.js';

const f64 = { dtype: torch.float64 };
const signal = (n: number, phase = 0.3): number[] => Array.from({ length: n }, (_, i) => Math.sin(1.7 * i + phase) + ((i * 7) % 5) * 0.1);
const values = (t: Tensor): number[] => ([torch.view_as_real(t).tolist()] as unknown[]).flat(Number.POSITIVE_INFINITY) as number[];
const maxAbsDiff = (a: readonly number[], b: readonly number[]): number => {
  expect(a.length).toBe(b.length);
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - (b[i] as number))), 0);
};

describe('PocketFFT: every length against the direct DFT', () => {
  // 97, 131 and 1031 are primes above the Bluestein threshold; 2*97 mixes both; 210 = 2*3*5*7; 1000 = 2^3 5^3
  it.each([1, 2, 3, 5, 7, 8, 16, 97, 131, 194, 210, 1000, 1031])('n = %i, both directions', (n) => {
    for (const sign of [-1, 1]) {
      const x = new Float64Array(2 * n);
      for (let i = 0; i < 2 * n; i++) x[i] = Math.cos(0.37 * i * i) + 0.25;
      const got = new Float64Array(2 * n);
      transform(plan(n, sign), x, 0, 1, got, 0);
      let worst = 0;
      for (let k = 0; k < n; k++) {
        let re = 0;
        let im = 0;
        for (let j = 0; j < n; j++) {
          const a = (sign * 2 * Math.PI * ((j * k) % n)) / n;
          re += (x[2 * j] as number) * Math.cos(a) - (x[2 * j + 1] as number) * Math.sin(a);
          im += (x[2 * j] as number) * Math.sin(a) + (x[2 * j + 1] as number) * Math.cos(a);
        }
        worst = Math.max(worst, Math.abs(re - (got[2 * k] as number)), Math.abs(im - (got[2 * k + 1] as number)));
      }
      expect(worst).toBeLessThan(1e-12 * n);
    }
  });
});

describe('torch.fft round trips', () => {
  const norms = [null, 'backward', 'forward', 'ortho'] as const;
  it.each([6, 11, 101])('ifft(fft(x)) and irfft(rfft(x), n) give x back (n = %i)', (n) => {
    const x = torch.tensor(signal(n), f64);
    for (const norm of norms) {
      const c = torch.fft.fft(x, { norm });
      expect(maxAbsDiff(values(torch.fft.ifft(c, { norm })), values(torch.complex(x, torch.zeros([n], f64))))).toBeLessThan(1e-12);
      const r = torch.fft.irfft(torch.fft.rfft(x, { norm }), n, { norm });
      expect(maxAbsDiff(r.tolist() as number[], signal(n))).toBeLessThan(1e-12);
      // hfft is the transform of a Hermitian signal: ihfft inverts it
      const h = torch.fft.hfft(torch.fft.ihfft(x, { norm }), n, { norm });
      expect(maxAbsDiff(h.tolist() as number[], signal(n))).toBeLessThan(1e-12);
    }
  });

  it('fftn over a permuted 3-d input equals three 1-d transforms; rfftn keeps the first half of fftn', () => {
    const x = torch.tensor(signal(60), f64).reshape([3, 4, 5]).permute([2, 0, 1]);
    const all = torch.fft.fftn(x);
    let step = torch.complex(x, torch.zeros_like(x));
    for (const d of [0, 1, 2]) step = torch.fft.fft(step, { dim: d });
    expect(maxAbsDiff(values(all), values(step))).toBeLessThan(1e-12);
    const half = torch.fft.rfftn(x);
    expect(half.shape).toEqual([5, 3, 3]);
    expect(maxAbsDiff(values(half), values(all.narrow(2, 0, 3)))).toBeLessThan(1e-12);
  });

  it('rfftn transforms the other dims only over the kept half, whichever dim is last', () => {
    const x = torch.tensor(signal(6 * 4 * 8), f64).reshape([6, 4, 8]);
    for (const [dim, last, keep] of [
      [[0, 2], 2, 5],
      [[2, 1], 1, 3],
      [[0, 1, 2], 2, 5],
    ] as [number[], number, number][]) {
      const all = torch.fft.fftn(x, { dim });
      const half = torch.fft.rfftn(x, { dim });
      expect(half.shape[last]).toBe(keep);
      expect(maxAbsDiff(values(half), values(all.narrow(last, 0, keep)))).toBeLessThan(1e-12);
    }
  });

  it("'ortho' keeps the energy (Parseval)", () => {
    const x = torch.tensor(signal(37), f64);
    const e = (signal(37) as number[]).reduce((s, v) => s + v * v, 0);
    const c = values(torch.fft.fft(x, { norm: 'ortho' }));
    expect(c.reduce((s, v) => s + v * v, 0)).toBeCloseTo(e, 10);
  });

  it('fftfreq, rfftfreq and the shifts', () => {
    expect(torch.fft.fftfreq(5, 0.5).tolist()).toEqual([0, 0.4, 0.8, -0.8, -0.4].map(Math.fround));
    expect(torch.fft.rfftfreq(6, { dtype: torch.float64 }).tolist()).toEqual([0, 1 / 6, 2 / 6, 3 / 6]);
    const f = torch.fft.fftfreq(7, { dtype: torch.float64 });
    expect(torch.fft.ifftshift(torch.fft.fftshift(f)).tolist()).toEqual(f.tolist());
    expect((torch.fft.fftshift(f).tolist() as number[])[3]).toBe(0);
  });
});

describe('gradients of the real-input transforms', () => {
  it('rfft and irfft: the gradient for a cotangent G is the direct sum of G_k against the transform', () => {
    const n = 7;
    const x = torch.tensor(signal(n), { dtype: torch.float64, requires_grad: true });
    const X = torch.fft.rfft(x);
    expect(X.grad_fn?.name()).toBe('FftR2CBackward0');
    const gr = [0.5, -1, 0.25, 2];
    const gi = [0.3, 0.1, -0.7, 1.5];
    const G = torch.complex(torch.tensor(gr, f64), torch.tensor(gi, f64));
    const [g] = torch.autograd.grad([X], [x], { gradOutputs: [G] });
    // dL/dx_j = Re(Σ_k G_k exp(+2πi jk/n)) over the bins rfft returns (fft_r2c_backward)
    const want = Array.from({ length: n }, (_, j) =>
      gr.reduce((s, r, k) => s + r * Math.cos((2 * Math.PI * j * k) / n) - (gi[k] as number) * Math.sin((2 * Math.PI * j * k) / n), 0),
    );
    expect(maxAbsDiff(g!.tolist() as number[], want)).toBeLessThan(1e-12);
    // irfft's gradient: onesided r2c of the cotangent, the bins standing for two doubled
    const z = torch.tensor(signal(4), { dtype: torch.float64, requires_grad: true });
    const y = torch.fft.irfft(z, 6);
    expect(y.grad_fn?.name()).toBe('FftC2RBackward0');
    const cot = torch.tensor(signal(6, 1.1), f64);
    const [gz] = torch.autograd.grad([y], [z], { gradOutputs: [cot] });
    const wantZ = [0, 1, 2, 3].map(
      (k) => ((k === 0 || k === 3 ? 1 : 2) / 6) * signal(6, 1.1).reduce((s, c, j) => s + c * Math.cos((2 * Math.PI * j * k) / 6), 0),
    );
    expect(maxAbsDiff(gz!.tolist() as number[], wantZ)).toBeLessThan(1e-12);
  });
});

describe("PyTorch's argument errors", () => {
  const x = torch.randn([4, 5]);
  it.each([
    [() => torch.fft.fft(x, { norm: 'bad' }), 'Invalid normalization mode: "bad"'],
    [() => torch.fft.rfft(torch.complex(x, x)), 'rfft expects a real input tensor, but got ComplexFloat'],
    [() => torch.fft.fftn(x, { dim: [0, 0] }), 'FFT dims must be unique'],
    [() => torch.fft.fft(x, 0), 'Invalid number of data points (0) specified'],
    [() => torch.fft.fftn(x, [2, 3, 4]), 'Got shape with 3 values but input tensor only has 2 dimensions.'],
    [() => torch.fft.fftn(x, [2], [0, 1]), 'When given, dim and shape arguments must have the same length'],
    [() => torch.fft.fftfreq(4, { dtype: torch.int64 }), 'fftfreq requires a floating point or complex dtype'],
    [() => torch.fft.irfft(torch.randn([1])), 'Invalid number of data points (0) specified'],
    [() => torch.fft.rfftn(x, { dim: [] }), 'rfftn must transform at least one axis'],
  ] as [() => unknown, string][])('%#', (f, text) => {
    expect(f).toThrow(text);
  });
});
