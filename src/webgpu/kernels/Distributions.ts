// Random numbers drawn on the webgpu device: the device's generator (a seed and an offset, as PyTorch's
// CUDAGeneratorImpl / MPSGeneratorImpl keep) and Philox-4x32-10 in WGSL, for `bernoulli_.float` and `uniform_`
// (dropout's noise), over float32 and float16. The counterpart of aten/src/ATen/native/mps/operations/Distributions.mm and
// aten/src/ATen/cuda/CUDAGeneratorImpl.cpp; the numbers differ from the CPU's (PyTorch's do too).
import { ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
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
function fill(
  rt: WebGPURuntime,
  gen: WebGPUGenerator,
  op: string,
  self: Tensor,
  expr0: string,
  a: number,
  b: number,
  block = UNIFORM_BLOCK,
  halfFn = op === 'aten::uniform_' ? UNIFORM_HALF : BERNOULLI_HALF,
): Tensor {
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
    `${op}:${expr}:${block}`,
    () => `${bindings(['y'])}
${PHILOX_WGSL}
${half ? `${F16_WGSL}\n${halfFn}` : ''}
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let blk = gid.x + gid.y * nw.x * 64u;
  if (blk * 4u >= p[0]) { return; }
  let a = bitcast<f32>(p[5]); let b = bitcast<f32>(p[6]);
  let w = philox(vec4u(blk, 0u, p[3], p[4]), vec2u(p[1], p[2]));
  ${block}
  for (var j = 0u; j < 4u; j++) {
    let i = blk * 4u + j;
    if (i < p[0]) { let u = v[j]; y[i] = ${expr}; }
  }
}`,
    [out],
    params,
    Math.ceil(blocks / 64),
  );
  return out === self ? self : self.copy_(out);
}

/** The block's four uniforms in [0, 1). */
const UNIFORM_BLOCK = 'let v = vec4f(uniform01(w.x), uniform01(w.y), uniform01(w.z), uniform01(w.w));';

// Note [normal_ on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Box-Muller on the Philox block's four words, as CUDA's normal_kernel (curand_normal4 over Philox): words 0, 1
// give one pair and words 2, 3 another, r = sqrt(-2 log(1 - u0)) (1 - u0 in (0, 1], so the log is finite),
// z = (r cos(2 pi u1), r sin(2 pi u1)); then mean + std * z in f32. The 24-bit uniforms bound |z| by
// sqrt(-2 log 2^-24) = 5.77 (curand's 32-bit ones by 6.66): draws beyond 5.77 sd (a probability of 8e-9)
// never occur. The offset advances by a block per four elements like every call (Note [The webgpu generator]);
// float16 takes the same draws rounded once (Note [float16 random numbers on the webgpu device]).
const NORMAL_BLOCK = `let r0 = sqrt(-2.0 * log(1.0 - uniform01(w.x))); let t0 = 6.2831853 * uniform01(w.y);
  let r1 = sqrt(-2.0 * log(1.0 - uniform01(w.z))); let t1 = 6.2831853 * uniform01(w.w);
  let v = vec4f(r0 * cos(t0), r0 * sin(t0), r1 * cos(t1), r1 * sin(t1));`;
/** WGSL `half_of(v)`: the value rounded to float16. */
const ROUND_HALF = 'fn half_of(v: f32) -> f32 { return h2f(f2h(v)); }';

/** `normal_(self, mean, std)`. See Note [normal_ on the webgpu device]. */
export function normal_(rt: WebGPURuntime, gen: WebGPUGenerator, self: Tensor, mean: number, std: number): Tensor {
  if (!(std >= 0)) throw new Error(`normal expects std >= 0.0, but found std ${formatStd(std)}`);
  return fill(rt, gen, 'aten::normal_', self, 'a + b * u', mean, std, NORMAL_BLOCK, ROUND_HALF);
}

/** A double as c10's `<<` prints it (6 significant digits): -1, 0.5, -1e-07. */
function formatStd(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  const g = Number(x.toPrecision(6));
  return Math.abs(g) >= 1e-4 && Math.abs(g) < 1e6 ? String(g) : g.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
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

// Note [random_ and randperm on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `random_` (and so torch.randint, which is empty(size).random_(low, high) as in PyTorch) draws from + w % range
// with one Philox word w per element, as CUDA's random_from_to_kernel for ranges below 2^32, at the generator's
// offsets (Note [The webgpu generator]). On the device when [from, to) lies within int32: a shader writes the
// values into an int32 temporary that `copy_` casts to self's dtype (int32, int64, float32, float16, bool:
// exact, the ranges PyTorch allows these dtypes are within 2^24 for float32 and 2^11 for float16). Wider int64
// ranges (random_() on int64 is [0, 2^63)) take two words per element (w0 * 2^32 + w1) % range on the host, in
// BigInt, from the same Philox stream computed in TypeScript (`philoxBlock`), and upload the result: the words
// are the device's, only the arithmetic moves. `randperm` runs on the host the same way: a Fisher-Yates pass
// from the front (randperm_cpu's: swap i with i + w_i % (n - i)) over n words of the device's stream, uploaded.
// PyTorch's CUDA randperm sorts random keys instead; a pass over n words gives a permutation reproducible per
// seed, with the offset advanced like any call of n draws, and needs no device sort.

const mulhilo = (a: number, b: number): [number, number] => {
  const p = BigInt(a) * BigInt(b);
  return [Number(p >> 32n), Number(p & 0xffffffffn)];
};

/** Philox-4x32-10's four words for `counter` under `key`, as PHILOX_WGSL's `philox`. */
export function philoxBlock(counter: [number, number, number, number], key: [number, number]): number[] {
  let [c0, c1, c2, c3] = counter;
  let [k0, k1] = key;
  for (let r = 0; r < 10; r++) {
    const x = mulhilo(0xd2511f53, c0);
    const y = mulhilo(0xcd9e8d57, c2);
    [c0, c1, c2, c3] = [(y[0] ^ c1 ^ k0) >>> 0, y[1], (x[0] ^ c3 ^ k1) >>> 0, x[1]];
    k0 = (k0 + 0x9e3779b9) >>> 0;
    k1 = (k1 + 0xbb67ae85) >>> 0;
  }
  return [c0, c1, c2, c3];
}

/** The next `n` words of the device generator's stream (the offset advances by ceil(n / 4) blocks). */
function hostWords(gen: WebGPUGenerator, n: number): Uint32Array {
  const blocks = Math.ceil(n / 4);
  const offset = gen.take(blocks);
  const key: [number, number] = [Number(gen.seed & 0xffffffffn), Number(gen.seed >> 32n)];
  const words = new Uint32Array(blocks * 4);
  for (let b = 0; b < blocks; b++) {
    const o = offset + BigInt(b);
    words.set(philoxBlock([b, 0, Number(o & 0xffffffffn), Number(o >> 32n)], key), b * 4);
  }
  return words;
}

/** The largest value random_ draws by default (to = None): 2^digits for floating dtypes, the dtype's maximum. */
function toInclusive(st: ScalarType): number {
  if (st === ScalarType.Float) return 2 ** 24;
  if (st === ScalarType.Half) return 2 ** 11;
  if (st === ScalarType.Int) return 2 ** 31 - 1;
  if (st === ScalarType.Long) return 2 ** 63;
  if (st === ScalarType.Bool) return 1;
  throw new Error(`webgpu: random_ supports int32, int64, float32, float16 and bool tensors only so far, got ${String(self_dtype(st))}`);
}
const self_dtype = (st: ScalarType): string => torch.dtype.of(st).name;

/** `random_.from(self, from, to)` / `random_.to` / `random_`. See Note [random_ and randperm on the webgpu device]. */
export function random_(rt: WebGPURuntime, gen: WebGPUGenerator, self: Tensor, from: number, to: number | null): Tensor {
  const st = self.scalarType;
  const high = to ?? toInclusive(st) + 1;
  if (!(from < high)) throw new Error(`random_ expects 'from' to be less than 'to', but got from=${from} >= to=${high}`);
  toInclusive(st);
  // check_from_to_in_range: integral dtypes raise (floating ones only warn in PyTorch)
  const bounds =
    st === ScalarType.Int ? ([-(2 ** 31), 2 ** 31 - 1, 'int'] as const) : st === ScalarType.Bool ? ([0, 1, 'bool'] as const) : null;
  if (bounds != null && (from < bounds[0] || from > bounds[1])) throw new Error(`from is out of bounds for ${bounds[2]}`);
  if (bounds != null && (high - 1 < bounds[0] || high - 1 > bounds[1])) throw new Error(`to - 1 is out of bounds for ${bounds[2]}`);
  const n = self.numel();
  if (n === 0) return self;
  if (from >= -(2 ** 31) && high - 1 < 2 ** 31) {
    const tmp = empty_generic([...self.sizes], rt, ScalarType.Int);
    const blocks = Math.ceil(n / 4);
    const offset = gen.take(blocks);
    const params = new Uint32Array([
      n,
      Number(gen.seed & 0xffffffffn),
      Number(gen.seed >> 32n),
      Number(offset & 0xffffffffn),
      Number(offset >> 32n),
      from >>> 0,
      high - from === 2 ** 32 ? 0 : high - from,
      0,
    ]);
    launch(
      rt,
      'aten::random_',
      () => `${bindings(['y'], ['u32'])}
${PHILOX_WGSL}
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let blk = gid.x + gid.y * nw.x * 64u;
  if (blk * 4u >= p[0]) { return; }
  let w = philox(vec4u(blk, 0u, p[3], p[4]), vec2u(p[1], p[2]));
  for (var j = 0u; j < 4u; j++) {
    let i = blk * 4u + j;
    if (i < p[0]) { y[i] = p[5] + select(w[j] % p[6], w[j], p[6] == 0u); }
  }
}`,
      [tmp],
      params,
      Math.ceil(blocks / 64),
    );
    return self.copy_(tmp);
  }
  // Wide int64 ranges: two words per element on the host, exact in BigInt, uploaded.
  const words = hostWords(gen, 2 * n);
  const range = BigInt(high) - BigInt(from);
  const values: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const draw = ((BigInt(words[2 * i] as number) << 32n) | BigInt(words[2 * i + 1] as number)) % range;
    values[i] = Number(BigInt.asIntN(64, draw + BigInt(from)));
  }
  return self.copy_(torch.tensor(values, { dtype: torch.int64 }).view(self.sizes));
}

/** `randperm.generator_out(n, out)`: a Fisher-Yates pass on the host over the device's words, uploaded. */
export function randpermOut(gen: WebGPUGenerator, n: number, out: Tensor): Tensor {
  if (n < 0) throw new Error(`n must be non-negative, got${n}`);
  const st = out.scalarType;
  if (st === ScalarType.Float && n > 2 ** 24 + 1) throw new Error('n cannot be greater than 2^24+1 for Float type.');
  if (st === ScalarType.Half && n > 2 ** 11 + 1) throw new Error('n cannot be greater than 2049 for Half type.');
  if (out.sizes.length !== 1 || out.sizes[0] !== n) out.resize_([n]);
  if (n === 0) return out;
  const words = hostWords(gen, n);
  const perm = new Array<number>(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = 0; i < n - 1; i++) {
    const z = i + ((words[i] as number) % (n - i));
    const save = perm[i] as number;
    perm[i] = perm[z] as number;
    perm[z] = save;
  }
  return out.copy_(torch.tensor(perm, { dtype: torch.int64 }));
}
