// f32_flash_attention / f32_flash_attention_backward (src/wasm/kernels/assembly/attention.ts) against their JS twins
// (src/wasm/kernels/referenceAttention.ts) on the same linear memory: the same bits for the output, the row statistics
// and the three gradients, over head dims around the 16/4/1-column steps, key counts around the 16/4/1-key
// steps, several key and query blocks, causal, masks broadcast in every dimension, grouped heads and operands
// stored [B, L, H, D] (strided heads). Note [Flash attention on CPU].
import { describe, expect, it } from 'vitest';
import { compileKernelsSync, instantiateKernels, simdSupported, type Kernels } from '../../src/wasm/index.js';
import * as ref from '../../src/wasm/kernels/referenceAttention.js';

const rt = simdSupported() ? instantiateKernels({ initialBytes: 1 << 24, maximumBytes: 1 << 24 }, compileKernelsSync(false, false)) : null;

/** Deterministic values in [-2, 2). */
function fill(a: Float32Array, seed: number): void {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = (s / 2 ** 32 - 0.5) * 4;
  }
}

const bitsOf = (a: Float32Array): number[] => [...new Uint32Array(a.buffer, a.byteOffset, a.length)];

// b, h, hk, l, s, d, qSplit, kvSplit, causal, mask ('' none, or which dims it spans: b h l s)
const CASES: [number, number, number, number, number, number, number, number, number, string][] = [
  [2, 2, 2, 5, 7, 8, 32, 512, 0, ''],
  [1, 2, 2, 33, 45, 17, 32, 512, 1, ''],
  [2, 4, 2, 9, 23, 16, 4, 8, 0, 'ls'],
  [1, 1, 1, 40, 40, 32, 16, 16, 1, 'bhls'],
  [2, 3, 3, 6, 19, 3, 32, 5, 0, 's'],
  [1, 2, 1, 70, 37, 64, 32, 16, 1, 'hl'],
  [2, 2, 2, 12, 30, 20, 8, 512, 0, 'b'],
];

describe.runIf(rt !== null)('flash attention kernels and their JS twins', () => {
  const wasm = rt?.wasm as Kernels;
  const js = rt?.js as Kernels;
  const mem = rt?.memory;
  for (const [b, h, hk, l, s, d, qSplit, kvSplit, causal, mask] of CASES) {
    it(`[${b}, ${h}(${hk}), ${l}, ${s}, ${d}] blocks ${qSplit}×${kvSplit}${causal ? ' causal' : ''}${mask ? ` mask ${mask}` : ''}: same bits`, () => {
      const buf = mem?.views().buffer as ArrayBuffer;
      let next = 64;
      const alloc = (n: number): number => {
        const at = next;
        next += Math.ceil((n * 4) / 64) * 64 + 64;
        return at;
      };
      const f32 = (at: number, n: number): Float32Array => new Float32Array(buf, at, n);
      // q, gout, out, gq stored [B, L, H, D]; k, v, gk, gv [B, Hk, S, D]
      const [nq, nk] = [b * l * h * d, b * hk * s * d];
      const [Q, K, V, GO] = [alloc(nq), alloc(nk), alloc(nk), alloc(nq)];
      fill(f32(Q, nq), 1);
      fill(f32(K, nk), 2);
      fill(f32(V, nk), 3);
      fill(f32(GO, nq), 4);
      const [mb, mh, ml, ms] = [
        mask.includes('b') ? b : 1,
        mask.includes('h') ? h : 1,
        mask.includes('l') ? l : 1,
        mask.includes('s') ? s : 1,
      ];
      const M = alloc(mb * mh * ml * ms);
      fill(f32(M, mb * mh * ml * ms), 5);
      const m = f32(M, mb * mh * ml * ms);
      for (let i = 0; i < m.length; i++) if (i % 7 === 2) m[i] = -Infinity;
      const outs = [0, 1].map(() => ({ out: alloc(nq), stats: alloc(b * h * l * 2), gq: alloc(nq), gk: alloc(nk), gv: alloc(nk) }));
      const wsElems = ref.flashWorkspace(d, qSplit, kvSplit);
      const ws = alloc(wsElems);
      const params = alloc(ref.FLASH_PARAMS);
      const qSlices = Math.ceil(l / qSplit);
      for (const [i, k] of [wasm, js].entries()) {
        const o = outs[i] as (typeof outs)[0];
        f32(o.gq, nq).fill(0);
        f32(o.gk, nk).fill(0);
        f32(o.gv, nk).fill(0);
        const at = new Uint32Array(buf, params, ref.FLASH_PARAMS);
        at.set([b, h, hk, l, s, d, qSplit, kvSplit, causal, mask ? 1 : 0]);
        const set = (op: number, addr: number, sB: number, sH: number, sM: number): void => {
          at.set([addr >>> 2, sB, sH, sM], 10 + op);
        };
        set(ref.Q, Q, l * h * d, d, h * d);
        set(ref.K, K, hk * s * d, s * d, d);
        set(ref.V, V, hk * s * d, s * d, d);
        set(ref.OUT, o.out, l * h * d, d, h * d);
        set(ref.STATS, o.stats, h * l * 2, l * 2, 2);
        set(ref.MASK, M, mb > 1 ? mh * ml * ms : 0, mh > 1 ? ml * ms : 0, ml > 1 ? ms : 0);
        at[10 + ref.MASK_SN] = ms > 1 ? 1 : 0;
        set(ref.GOUT, GO, l * h * d, d, h * d);
        set(ref.GQ, o.gq, l * h * d, d, h * d);
        set(ref.GK, o.gk, hk * s * d, s * d, d);
        set(ref.GV, o.gv, hk * s * d, s * d, d);
        const items = b * h * qSlices;
        // two calls, as two threads would make them
        k.f32_flash_attention(0, items >> 1, params, 0.37, ws);
        k.f32_flash_attention(items >> 1, items, params, 0.37, ws);
        // the backward reads logsumexp: the row max in the stats' first slot stands in for it (any finite value)
        set(ref.STATS, o.stats, h * l * 2, l * 2, 2);
        k.f32_flash_attention_backward(0, b * hk, params, 0.37, ws);
      }
      const [a, c] = outs as [(typeof outs)[0], (typeof outs)[0]];
      expect(bitsOf(f32(a.out, nq))).toEqual(bitsOf(f32(c.out, nq)));
      expect(bitsOf(f32(a.stats, b * h * l * 2))).toEqual(bitsOf(f32(c.stats, b * h * l * 2)));
      for (const key of ['gq', 'gk', 'gv'] as const) {
        const n = key === 'gq' ? nq : nk;
        expect(bitsOf(f32(a[key], n))).toEqual(bitsOf(f32(c[key], n)));
      }
      expect(f32(a.out, nq).some((v) => v !== 0)).toBe(true);
      expect(f32(a.gk, nk).some((v) => v !== 0)).toBe(true);
      expect(f32(a.gq, nq).every((v) => Number.isFinite(v))).toBe(true);
    });
  }
});
