// The forms a PyTorch user types: every argument by keyword, required ones included (Note [Every
// argument by keyword] in src/codegen/api/python.ts); the option-key rule (Note [Option keys] in
// src/c10/Kwargs.ts) across the generated functions, the hand-written factories, Tensor.to and the autograd
// API; dtypes by name; T/mT/H/mH/ndim and the dtype conversions; losses with `reduction` by name. Values and
// texts from PyTorch 2.13 (tools/golden/gen_api_forms.py -> test/golden/api_forms.json).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { torch, Tensor } from '../../src/api/index.js';
import { INT64_HINT } from '../../src/c10/Scalar.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { API_TOLERANCE, checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
  error_type?: string;
}

const golden = loadGolden<{ cases: Record<string, Case> }>('api_forms.json');

/** Loose calls: the forms below include ones the TypeScript overloads reject on purpose (unknown keys). */
type Fn = (...a: unknown[]) => unknown;
const loose = (f: unknown): Fn => f as Fn;

const x = (): Tensor =>
  torch.tensor(
    [
      [1, -2, 3],
      [4, 5, -6],
    ],
    { dtype: torch.float32 },
  );
const img = (): Tensor => torch.arange(12, { dtype: torch.float32 }).reshape([1, 1, 3, 4]);
const w = (): Tensor => torch.tensor([0.5, -1, 2], { requires_grad: true });
const t3 = (): Tensor => torch.arange(24, { dtype: torch.float32 }).reshape([2, 3, 4]);
const inp = (): Tensor =>
  torch.tensor(
    [
      [0.2, -1, 0.5],
      [1.5, 0.3, -0.7],
    ],
    { requires_grad: true },
  );
const tgt = (): Tensor =>
  torch.tensor(
    [
      [0, -0.5, 1],
      [1, 1, -1],
    ],
    { dtype: torch.float32 },
  );
const v = (): Tensor => torch.tensor([3, 1, 2, 1], { dtype: torch.float32, requires_grad: true });
const m = (): Tensor =>
  torch.tensor(
    [
      [1, 0, -2],
      [0, 4, 1.5],
    ],
    { dtype: torch.float32 },
  );
const gx = (): Tensor => torch.tensor([1.5, 2.5], { requires_grad: true });
const gt = (): Tensor => torch.tensor([2, 3], { dtype: torch.float32 });
const cls = (): Tensor => torch.tensor([2, 0]);
const prob = (): Tensor =>
  torch.tensor(
    [
      [0.2, 0.9, 0.5],
      [0.6, 0.1, 0.7],
    ],
    { requires_grad: true },
  );
const lbl = (): Tensor =>
  torch.tensor(
    [
      [0, 1, 1],
      [1, 0, 0],
    ],
    { dtype: torch.float32 },
  );

const CASES: Record<string, () => unknown> = {
  softmax_kw_dim: () => torch.softmax(x(), { dim: 1 }),
  softmax_kw_dim_dtype: () => torch.softmax(x(), { dim: 0, dtype: torch.float64 }),
  sum_kw_dim_keepdim: () => x().sum({ dim: 1, keepdim: true }),
  max_kw_dim: () => torch.max(x(), { dim: 1 }),
  max_kw_dim_keepdim: () => x().max({ dim: 0, keepdim: true }),
  max_pool2d_kw_kernel: () => torch.max_pool2d(img(), { kernel_size: 2 }),
  max_pool2d_kw_all: () => torch.max_pool2d(img(), { kernel_size: 2, stride: 1, padding: 1 }),
  arange_kw_end: () => torch.arange(0, { end: 5 }),
  arange_only_end_kw: () => torch.arange({ end: 3 }),
  arange_start_end_kw: () => torch.arange({ start: 2, end: 6 }),
  arange_step_kw: () => torch.arange(1, 10, { step: 3 }),
  arange_out: () => torch.arange(1, 4, { out: torch.empty(2) }),
  arange_out_int: () => torch.arange(5, { out: torch.zeros(5, { dtype: torch.int32 }) }),
  transpose_kw: () => x().transpose({ dim0: 0, dim1: 1 }),
  gather_kw: () =>
    torch.gather(x(), {
      dim: 1,
      index: torch.tensor([
        [0, 0],
        [1, 2],
      ]),
    }),
  add_kw_other: () => torch.add(x(), { other: x(), alpha: 2 }),
  view_kw_size: () => x().view({ size: [3, 2] }),
  zeros_kw_size: () => torch.zeros({ size: [2, 1] }),
  index_select_kw: () => x().index_select({ dim: 1, index: torch.tensor([2, 0]) }),
  softmax_dims: () => loose(torch.softmax)(x(), { dims: 1 }),
  softmax_dim_dims: () => loose(torch.softmax)(x(), 1, { dims: 1 }),
  softmax_dim_twice: () => loose(torch.softmax)(x(), 1, { dim: 1 }),
  zeros_dims: () => loose(torch.zeros)(2, { dims: 1 }),
  tensor_dtpe: () => loose(torch.tensor)([1], { dtpe: torch.float32 }),
  arange_ends: () => loose(torch.arange)(0, { ends: 5 }),
  gelu_approx: () => loose(torch.gelu)(x(), { approx: 'tanh' }),
  backward_retain_grap: () => loose(w().mul(w()).sum().backward.bind(w().mul(w()).sum()))({ retain_grap: true }),
  grad_allow_unuse: () => {
    const v = w();
    return loose(torch.autograd.grad)(v.mul(v).sum(), v, { allow_unuse: true });
  },
  autograd_backward_bad: () => {
    const v = w();
    return loose(torch.autograd.backward)(v.mul(v).sum(), { retain_grap: true });
  },
  ones_requires_grad: () => torch.ones(2, { requires_grad: true }),
  tensor_requires_grad_int: () => torch.tensor([1, 2], { requires_grad: true }),
  backward_retain_graph: () => {
    const v = w();
    const loss = v.mul(v).sum();
    loss.backward(null, { retain_graph: true });
    loss.backward();
    return v.grad;
  },
  backward_kw_only: () => {
    const v = w();
    v.mul(v).sum().backward({ retain_graph: true });
    return v.grad;
  },
  backward_gradient_kw: () => {
    const v = w();
    v.mul(v).backward({ gradient: torch.tensor([1, 2, 3], { dtype: torch.float32 }) });
    return v.grad;
  },
  backward_freed: () => {
    const v = w();
    const loss = v.mul(v).sum();
    loss.backward();
    loss.backward();
  },
  grad_create_graph: () => {
    const v = w();
    return torch.autograd.grad(v.mul(v).sum(), v, { create_graph: true });
  },
  str_dtype: () => String(x().dtype),
  str_dtype_long: () => String(torch.long),
  to_float64: () => x().to(torch.float64),
  to_kw_dtype: () => x().to({ dtype: 'float64' }),
  to_device_dtype: () => x().to('cpu', 'int32'),
  to_other: () => x().to(torch.tensor([1])),
  zeros_dtype_double: () => torch.zeros(2, { dtype: 'double' }),
  ones_dtype_long: () => torch.ones(2, { dtype: torch.long }),
  T_2d: () => x().T,
  T_2d_grad_fn: () => w().reshape([1, 3]).T,
  mT_3d: () => t3().mT,
  mT_1d: () => torch.ones(3).mT,
  H_2d: () => x().H,
  H_1d: () => torch.ones(3).H,
  mH_3d: () => t3().mH,
  ndim: () => t3().ndim,
  dim: () => t3().dim(),
  numel: () => t3().numel(),
  nelement: () => t3().nelement(),
  grad_fn_name: () => w().mul(2).grad_fn?.name(),
  is_leaf: () => [w().is_leaf, w().mul(2).is_leaf],
  requires_grad_attr: () => [w().requires_grad, x().requires_grad],
  requires_grad_method: () => torch.ones(2).requires_grad_().requires_grad,
  float: () => torch.tensor([1, 2]).float(),
  double: () => torch.tensor([1, 2]).double(),
  long: () => torch.tensor([1.5, -2.5]).long(),
  int: () => torch.tensor([1.5, -2.5]).int(),
  bool: () => torch.tensor([0, 2], { dtype: 'float32' }).bool(),
  half: () => torch.tensor([1.5, 2]).half(),
  mse_loss_bad_reduction: () => loose(torch.mse_loss)(inp(), tgt(), { reduction: 'avg' }),
  frombuffer_int32: () => torch.frombuffer(new Uint8Array([1, 0, 0, 0, 2, 0, 0, 0]).buffer, { dtype: torch.int32 }),
  frombuffer_offset_count: () => torch.frombuffer(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]), { dtype: torch.int16, offset: 2, count: 2 }),
  frombuffer_bad_len: () => torch.frombuffer(new ArrayBuffer(10), { dtype: torch.float32 }),
  frombuffer_bad_offset: () => torch.frombuffer(new ArrayBuffer(10), { dtype: torch.float32, offset: 12 }),
  frombuffer_bad_count: () => torch.frombuffer(new ArrayBuffer(10), { dtype: torch.float32, count: 3 }),
  frombuffer_zero_count: () => torch.frombuffer(new ArrayBuffer(10), { dtype: torch.float32, count: 0 }),
  gf_pow_scalar: () => gx().pow(2),
  gf_pow_tensor: () => gx().pow(gt()),
  gf_pow_scalar_base: () => torch.pow(2, gx()),
  gf_div_mode: () => gx().div(gt(), { rounding_mode: 'floor' }),
  gf_remainder_tensor: () => gx().remainder(gt()),
  gf_remainder_scalar: () => gx().remainder(2),
  gf_fmod_tensor: () => gx().fmod(gt()),
  gf_fmod_scalar: () => gx().fmod(2),
  gf_clamp_scalar: () => gx().clamp(0, 2),
  gf_clamp_tensor: () => gx().clamp(gt(), gt()),
  gf_index_put: () =>
    gx()
      .clone()
      .index_put([torch.tensor([0])], torch.tensor(1, { dtype: torch.float32 })),
  max_all: () => torch.max(v()),
  min_all_method: () => v().min(),
  max_all_empty: () => torch.max(torch.ones(0)),
  max_other: () => torch.max(v(), torch.zeros(4)),
  min_other_method: () => v().min(torch.full([4], 2, { dtype: torch.float32 })),
  max_all_grad: () => {
    const a = torch.tensor([1, 3, 3], { dtype: torch.float32, requires_grad: true });
    torch.max(a).backward();
    return a.grad;
  },
  var_unbiased_false: () => v().var(false),
  var_kw_unbiased: () => v().var({ unbiased: false }),
  std_dim_unbiased: () => torch.std(m(), 1, true),
  var_dim_kw: () => torch.var(m(), { dim: 0, unbiased: false, keepdim: true }),
  sort_stable: () => torch.sort(v(), { stable: true }),
  sort_stable_desc: () => torch.sort(m(), { stable: true, dim: 0, descending: true }),
  argsort_stable: () => v().argsort({ stable: true, descending: true }),
  split_sizes: () => v().split([1, 3]),
  split_sizes_fn: () => torch.split(m(), [2, 1], { dim: 1 }),
  broadcast_tensors: () => torch.broadcast_tensors(v(), torch.ones(2, 1)),
  take_along_dim_flat: () => torch.take_along_dim(v(), torch.tensor([0, 2])),
  take_along_dim_dim: () => torch.take_along_dim(m(), torch.tensor([[2], [0]]), { dim: 1 }),
  take_along_dim_int32: () => torch.take_along_dim(m(), torch.tensor([[2], [0]], { dtype: torch.int32 }), { dim: 1 }),
  narrow_tensor: () => torch.narrow(v(), 0, torch.tensor(1), 2),
  nonzero_as_tuple: () => torch.nonzero(m(), { as_tuple: true }),
  nonzero_as_tuple_method: () => loose(m().nonzero.bind(m()))({ as_tuple: true }),
  nonzero_as_tuple_0d: () => torch.nonzero(torch.tensor(5, { dtype: torch.float32 }), { as_tuple: true }),
  norm_fro: () => torch.norm(m(), 'fro'),
  norm_fro_dim: () => torch.norm(m(), 'fro', { dim: 1 }),
  norm_p1_kw: () => torch.norm(m(), { p: 1 }),
  cat_out: () => torch.cat([m(), m()], { out: torch.empty(0) }),
  cat_out_double: () => torch.cat([m(), m()], { out: torch.empty(0, { dtype: torch.float64 }) }),
  gather_out: () => torch.gather(m(), 1, torch.tensor([[0], [1]]), { out: torch.empty(0) }),
  gather_out_double: () => torch.gather(m(), 1, torch.tensor([[0], [1]]), { out: torch.empty(0, { dtype: torch.float64 }) }),
  index_select_out: () => torch.index_select(m(), 0, torch.tensor([1]), { out: torch.empty(0) }),
  index_select_out_double: () => torch.index_select(m(), 0, torch.tensor([1]), { out: torch.empty(0, { dtype: torch.float64 }) }),
  masked_select_out: () => torch.masked_select(m(), m().gt(0), { out: torch.empty(0) }),
  masked_select_out_double: () => torch.masked_select(m(), m().gt(0), { out: torch.empty(0, { dtype: torch.float64 }) }),
};
for (const red of ['mean', 'sum', 'none'] as const) {
  CASES[`mse_loss_${red}`] = () => torch.mse_loss(inp(), tgt(), { reduction: red });
  CASES[`l1_loss_${red}`] = () => torch.l1_loss(inp(), tgt(), { reduction: red });
  CASES[`nll_loss_${red}`] = () => torch.nll_loss(torch.log_softmax(inp(), 1), cls(), { reduction: red });
  CASES[`cross_entropy_${red}`] = () => torch.cross_entropy_loss(inp(), cls(), { reduction: red });
  CASES[`binary_cross_entropy_${red}`] = () => torch.binary_cross_entropy(prob(), lbl(), { reduction: red });
  CASES[`bce_with_logits_${red}`] = () => torch.binary_cross_entropy_with_logits(inp(), lbl(), { reduction: red });
}

describe('the forms a PyTorch user types (api_forms.json)', () => {
  let warnings: string[] = [];
  let previous: ReturnType<typeof setWarningHandler>;
  beforeEach(() => {
    warnings = [];
    previous = setWarningHandler((m) => warnings.push(m));
  });
  afterEach(() => {
    setWarningHandler(previous);
  });

  it('covers every golden case', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(golden.cases).sort());
  });

  for (const [id, c] of Object.entries(golden.cases)) {
    it(id, () => {
      const run = CASES[id]!;
      if (c.error !== undefined) {
        let message = '<no error>';
        try {
          run();
        } catch (e) {
          message = (e as Error).message.split('\n')[0]!;
        }
        // Messages from the integral-number rule carry aten-ts's hint after PyTorch's text.
        if (id === 'tensor_requires_grad_int') {
          expect(message.endsWith(INT64_HINT)).toBe(true);
          message = message.slice(0, -INT64_HINT.length);
        }
        expect(message).toBe(c.error);
        return;
      }
      checkResult(id, run(), c.result!, API_TOLERANCE);
    });
  }

  it('warns as PyTorch does when arange resizes a non-empty out', () => {
    torch.arange(1, 4, { out: torch.empty(2) });
    expect(warnings).toEqual([
      'The number of elements in the out tensor of shape [2] is 2 which does not match the computed number of elements 3. ' +
        'Note that this may occur as a result of rounding error. The out tensor will be resized to a tensor of shape (3,).',
    ]);
  });
});

describe('the option-key rule (Note [Option keys])', () => {
  it('takes the camelCase spelling of every key, everywhere', () => {
    expect(torch.ones(2, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.zeros([2], { requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.tensor([1], { dtype: 'float32', requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.randn(2, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.max_pool2d(img(), { kernelSize: 2 }).shape).toEqual([1, 1, 1, 2]);
    expect(x().sum({ dim: 1, keepdim: true }).shape).toEqual([2, 1]);
    const v = w();
    const loss = v.mul(v).sum();
    loss.backward(null, { retainGraph: true });
    loss.backward();
    expect(v.grad!.tolist()).toEqual([2, -4, 8]);
    const [g] = torch.autograd.grad(v.mul(v).sum(), v, { createGraph: true });
    expect(g!.requiresGrad).toBe(true);
    expect(x().to({ dtype: 'float64', nonBlocking: false }).dtype).toBe(torch.float64);
  });

  it('rejects both spellings of one key, and unknown keys with the key as typed', () => {
    expect(() => loose(torch.ones)(2, { requires_grad: true, requiresGrad: true })).toThrow(
      "ones() got multiple values for argument 'requires_grad'",
    );
    expect(() => loose(torch.ones)(2, { requiresGrads: true })).toThrow("ones() got an unexpected keyword argument 'requiresGrads'");
    expect(() => loose(x().to.bind(x()))({ dtypes: 'float64' })).toThrow("to() got an unexpected keyword argument 'dtypes'");
    expect(() => loose(torch.randperm)(3, { generater: null })).toThrow("randperm() got an unexpected keyword argument 'generater'");
    expect(() => loose(torch.eye)(3, { dtyp: 'float32' })).toThrow("eye() got an unexpected keyword argument 'dtyp'");
  });

  it('keeps a failed call from changing anything', () => {
    const v = w();
    const loss = v.mul(v).sum();
    expect(() => loose(loss.backward.bind(loss))(null, { retain_grap: true })).toThrow();
    expect(v.grad).toBe(null);
    loss.backward();
    expect(v.grad!.tolist()).toEqual([1, -2, 4]);
  });
});

describe('dtypes by name', () => {
  it('parses every PyTorch spelling wherever a dtype is taken', () => {
    for (const [name, dtype] of [
      ['float32', torch.float32],
      ['torch.float32', torch.float32],
      ['float', torch.float32],
      ['double', torch.float64],
      ['long', torch.int64],
      ['int', torch.int32],
      ['bool', torch.bool],
    ] as const) {
      expect(x().to(name).dtype, name).toBe(dtype);
      expect(torch.zeros(1, { dtype: name }).dtype, name).toBe(dtype);
      expect(x().sum({ dtype: name }).dtype, name).toBe(dtype);
    }
    expect(torch.float).toBe(torch.float32);
    expect(torch.double).toBe(torch.float64);
    expect(torch.long).toBe(torch.int64);
  });

  it('tells a dtype from a device in to()', () => {
    expect(x().to('meta').device.toString()).toBe('meta');
    expect(x().to('meta', 'float64').dtype).toBe(torch.float64);
    expect(() => x().to('floot64')).toThrow("Invalid device string: 'floot64'");
  });
});

describe('messages from the integral-number rule (Note [Messages from the integral-number rule])', () => {
  it('says how to ask for a float tensor when the int64 came from JavaScript numbers', () => {
    expect(() => torch.tensor([1.0, 2.0], { requires_grad: true })).toThrow(INT64_HINT);
    expect(() => torch.tensor([1, 2]).view(2, 1).requiresGrad_()).toThrow(INT64_HINT);
    expect(() => torch.tensor([1, 2]).mean()).toThrow(
      'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long' + INT64_HINT,
    );
    expect(() => torch.arange(3).add_(0.5)).toThrow("result type Float can't be cast to the desired output type Long" + INT64_HINT);
  });

  it("gives PyTorch's text alone for an int64 tensor asked for by dtype", () => {
    let message = '';
    try {
      torch.ones(2, { dtype: 'int64' }).requiresGrad_();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe('only Tensors of floating point dtype can require gradients');
  });
});

describe("typed arrays without a copy (Note [Storage over a caller's buffer])", () => {
  it('torch.from shares a typed array both ways', () => {
    const a = new Float32Array([1, 2, 3, 4]);
    const t = torch.from(a);
    expect(t.dtype).toBe(torch.float32);
    t.mul_(2);
    expect(Array.from(a)).toEqual([2, 4, 6, 8]);
    a[0] = 100;
    expect(t.tolist()).toEqual([100, 4, 6, 8]);
    expect(t.add(1).tolist()).toEqual([101, 5, 7, 9]);
    const sub = new Int32Array([9, 8, 7, 6]).subarray(1, 3);
    const s = torch.from(sub);
    s.fill_(0);
    expect(Array.from(new Int32Array(sub.buffer))).toEqual([9, 0, 0, 6]);
  });

  it("maps each typed array to its dtype, and copies what is not aten-ts's layout", () => {
    expect(torch.from(new Float64Array([1])).dtype).toBe(torch.float64);
    expect(torch.from(new Int8Array([1])).dtype).toBe(torch.int8);
    expect(torch.from(new Uint8Array([1, 0]), { dtype: torch.bool }).tolist()).toEqual([true, false]);
    const f64 = new Float64Array([1, 2]);
    const asLong = torch.from(f64, { dtype: torch.int64 });
    asLong.add_(1);
    expect(Array.from(f64)).toEqual([2, 3]);
    const big = new BigInt64Array([5n, -6n]);
    const t = torch.from(big);
    expect(t.dtype).toBe(torch.int64);
    t.fill_(0);
    expect(Array.from(big)).toEqual([5n, -6n]);
    expect(() => torch.frombuffer(new ArrayBuffer(16), { dtype: torch.int64 })).toThrow('aten-ts stores int64 as doubles');
  });

  it('frombuffer shares an ArrayBuffer', () => {
    const buf = new ArrayBuffer(16);
    torch.frombuffer(buf, { dtype: 'int32' }).fill_(7);
    expect(Array.from(new Int32Array(buf))).toEqual([7, 7, 7, 7]);
    expect(torch.frombuffer(buf, { dtype: 'float32', requires_grad: true }).requiresGrad).toBe(true);
  });

  it('numpy() is a typed array over a contiguous tensor', () => {
    const n = torch.arange(6, { dtype: torch.float32 }).view(2, 3);
    const a = n.numpy();
    expect(a).toBeInstanceOf(Float32Array);
    expect(Array.from(a)).toEqual([0, 1, 2, 3, 4, 5]);
    a[0] = 42;
    expect(n.tolist()).toEqual([
      [42, 1, 2],
      [3, 4, 5],
    ]);
    expect(Array.from(n.narrow(0, 1, 1).numpy())).toEqual([3, 4, 5]);
    expect(torch.arange(3).numpy()).toBeInstanceOf(Float64Array);
    expect(() => n.t().numpy()).toThrow('use x.contiguous().numpy()');
    expect(() => torch.ones(2, { requires_grad: true }).numpy()).toThrow(
      "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
    );
    expect(() => torch.ones(2, { device: 'meta' }).numpy()).toThrow("can't convert meta device type tensor to numpy");
  });
});
