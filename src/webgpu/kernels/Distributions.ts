// Random numbers drawn on the webgpu device: the device's generator (a seed and an offset, as PyTorch's
// CUDAGeneratorImpl / MPSGeneratorImpl keep) and Philox-4x32-10 in WGSL, for `bernoulli_.float` and `uniform_`
// (dropout's noise), over float32 and float16. The counterpart of aten/src/ATen/native/mps/operations/Distributions.mm and
// aten/src/ATen/cuda/CUDAGeneratorImpl.cpp; the numbers differ from the CPU's (PyTorch's do too).
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { bindings, contiguousOf, launch } from './Loops.js';
import { F16_WGSL } from './TypeProperties.js';

// Note [The webgpu generator]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A counter-based generator, as PyTorch's CUDA and MPS generators: the state is a 64-bit seed and a 64-bit
// offset. A call that draws n numbers takes the current offset, and advances it by ceil(n / 4) (each Philox
// block gives four 32-bit words); element i of the call gets word i % 4 of the block with counter
// (i / 4, 0, offset low, offset high) under the key (seed low, seed high). So a call's numbers depend only on
// the seed and on how many numbers the calls before it drew, never on the workgroup size or the order the
// GPU runs threads in; `torch.manual_seed(s)` (through `torch.webgpu.manual_seed_all`, which PyTorch's
// `_seed_custom_device` calls for a renamed PrivateUse1 backend) resets the seed to s and the offset to 0.
// WGSL has no 32x32->64 multiply: `mulhilo` builds the high word from 16-bit halves.

/** The device's default generator (`torch.webgpu.manual_seed`, `initial_seed`, `get_offset`). */
export class WebGPUGenerator {
  seed = 67280421310721n;
  offset = 0n;
  manual_seed(seed: number | bigint): this {
    this.seed = BigInt.asUintN(64, BigInt(seed));
    this.offset = 0n;
    return this;
  }
  initial_seed(): bigint {
    return this.seed;
  }
  /** The offset of the next call's first block, advanced past `blocks` blocks. */
  take(blocks: number): bigint {
    const o = this.offset;
    this.offset += BigInt(blocks);
    return o;
  }
}

export const PHILOX_WGSL = `fn mulhilo(a: u32, b: u32) -> vec2u {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
  return vec2u(hi, a * b);
}
fn philox(counter: vec4u, key0: vec2u) -> vec4u {
  var c = counter; var k = key0;
  for (var r = 0u; r < 10u; r++) {
    let x = mulhilo(0xD2511F53u, c.x);
    let y = mulhilo(0xCD9E8D57u, c.z);
    c = vec4u(y.x ^ c.y ^ k.x, y.y, x.x ^ c.w ^ k.y, x.y);
    k = k + vec2u(0x9E3779B9u, 0xBB67AE85u);
  }
  return c;
}
fn uniform01(w: u32) -> f32 { return f32(w >> 8u) * (1.0 / 16777216.0); }`;

// Note [float16 random numbers on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A float16 tensor takes the same draws as a float32 one (the same Philox words, the same offsets), computed in
// f32 and rounded once to float16, as PyTorch's CUDA kernels compute in accscalar_t and cast. `uniform_` then
// applies CUDA's bound check after the cast (DistributionTemplates.h uniform_kernel: a value that rounds to
// `to` becomes `from`), so the result stays in [from, to). The kernel writes the rounded values (exact in f32)
// into a float32 temporary that `copy_` casts to float16 exactly: the one rounding is in the shader, and the
// float32 shader serves both dtypes.

/** Fills a float32 or float16 tensor with `draw(u)` of uniform [0, 1) numbers from the device generator. */
function fill(rt: WebGPURuntime, gen: WebGPUGenerator, op: string, self: Tensor, expr0: string, a: number, b: number): Tensor {
  const half = self.scalarType === ScalarType.Half;
  if (self.scalarType !== ScalarType.Float && !half)
    throw new Error(`webgpu: ${op} supports float32 and float16 tensors only so far, got ${String(self.dtype)}`);
  const n = self.numel();
  if (n === 0) return self;
  // See Note [float16 random numbers on the webgpu device]
  const expr = half ? `half_of(${expr0})` : expr0;
  const out = !half && contiguousOf(self) === self ? self : empty_generic([...self.sizes], rt, ScalarType.Float);
  const blocks = Math.ceil(n / 4);
  const offset = gen.take(blocks);
  const params = new Uint32Array(8);
  const f = new Float32Array(params.buffer);
  params[0] = n;
  params[1] = Number(gen.seed & 0xffffffffn);
  params[2] = Number(gen.seed >> 32n);
  params[3] = Number(offset & 0xffffffffn);
  params[4] = Number(offset >> 32n);
  f[5] = a;
  f[6] = b;
  launch(
    rt,
    `${op}:${expr}`,
    () => `${bindings(['y'])}
${PHILOX_WGSL}
${half ? `${F16_WGSL}\n${op === 'aten::uniform_' ? UNIFORM_HALF : BERNOULLI_HALF}` : ''}
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let blk = gid.x + gid.y * nw.x * 64u;
  if (blk * 4u >= p[0]) { return; }
  let a = bitcast<f32>(p[5]); let b = bitcast<f32>(p[6]);
  let w = philox(vec4u(blk, 0u, p[3], p[4]), vec2u(p[1], p[2]));
  for (var j = 0u; j < 4u; j++) {
    let i = blk * 4u + j;
    if (i < p[0]) { let u = uniform01(w[j]); y[i] = ${expr}; }
  }
}`,
    [out],
    params,
    Math.ceil(blocks / 64),
  );
  return out === self ? self : self.copy_(out);
}

/** WGSL `half_of(v)`: uniform_'s value rounded to float16, `from` where it rounds to `to` (p[5], p[6]). */
const UNIFORM_HALF = `fn half_of(v: f32) -> f32 {
  let h = h2f(f2h(v));
  return select(h, bitcast<f32>(p[5]), h == bitcast<f32>(p[6]));
}`;
/** bernoulli's 0 and 1 are float16 values already. */
const BERNOULLI_HALF = 'fn half_of(v: f32) -> f32 { return v; }';

/** `bernoulli_.float(self, p)`: 1 with probability p, else 0. */
export function bernoulliScalar_(rt: WebGPURuntime, gen: WebGPUGenerator, self: Tensor, p: number): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`bernoulli_ expects p to be in [0, 1], but got p=${p}`);
  return fill(rt, gen, 'aten::bernoulli_.float', self, 'select(0.0, 1.0, u < a)', p, 0);
}

/** `uniform_(self, from, to)`. */
export function uniform_(rt: WebGPURuntime, gen: WebGPUGenerator, self: Tensor, from: number, to: number): Tensor {
  return fill(rt, gen, 'aten::uniform_', self, 'a + (b - a) * u', from, to);
}
