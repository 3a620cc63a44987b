// The calls a PyTorch user types, part 2 (part 1: kwargs.test.ts): every example
// as TypeScript — the overloads, Meta shapes and errors, values, memory formats (contiguous,
// is_contiguous, clone and cat of channels-last tensors), error texts and check orders, grad_fn names, the API
// forms — and the storage-size overflow checks of empty / empty_strided. Values, strides and texts from
// PyTorch 2.13 (tools/golden/gen_api_overloads.py -> test/golden/api_overloads.json).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { torch, Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { API_TOLERANCE, checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
}

const golden = loadGolden<{ cases: Record<string, Case> }>('api_overloads.json');
/** Loose calls: some forms are ones the TypeScript overloads reject on purpose, or take options by key. */
type Fn = (...a: unknown[]) => unknown;
const L = (f: unknown): Fn => f as Fn;
const F = nn.functional;
/** nn.functional or torch by name: a loss PyTorch has in both places (F.huber_loss, torch.huber_loss). */
const byName = (name: string): Fn =>
  ((nn.functional as unknown as Record<string, Fn | undefined>)[name] ?? (torch as unknown as Record<string, Fn | undefined>)[name])!;

const C: Record<string, () => unknown> = {};
const x = () =>
  torch.tensor(
    [
      [1.0, -2.0, 3.0],
      [4.0, 5.0, -6.0],
    ],
    { dtype: 'float32' },
  );
const a = () => torch.tensor([1.0, 5.0, 3.0], { dtype: 'float32' });
const b = () => torch.tensor([2.0, 4.0, 3.0], { dtype: 'float32' });
C.max_all = () => torch.max(x());
C.min_all = () => torch.min(x());
C.max_other = () => torch.max(a(), b());
C.min_other = () => torch.min(a(), b());
C.var_unbiased = () => L(torch.var)(x(), { unbiased: false });
C.std_unbiased = () => L(torch.std)(x(), 1, false);
C.var_unbiased_m = () => L(x().var.bind(x()))(0, true);
C.std_unbiased_m = () => L(x().std.bind(x()))({ unbiased: false });
C.sort_stable = () => L(torch.sort)(torch.tensor([2, 1, 2, 1, 0]), { stable: true });
C.argsort_stable = () => L(torch.argsort)(torch.tensor([2, 1, 2, 1, 0]), { stable: true, descending: true });
C.scatter_reduce_add = () => {
  const z = torch.zeros(2, 3);
  return L(z.scatter.bind(z))(
    1,
    torch.tensor([
      [0, 1],
      [2, 2],
    ]),
    torch.ones(2, 2),
    { reduce: 'add' },
  );
};
C.scatter_reduce_mul_value = () => {
  const z = torch.full([2, 3], 2.0, { dtype: 'float32' });
  return L(z.scatter.bind(z))(
    1,
    torch.tensor([
      [0, 1],
      [2, 2],
    ]),
    3.0,
    { reduce: 'multiply' },
  );
};
C.take_along_dim = () => L(torch.take_along_dim)(x(), torch.tensor([[0], [2]]), { dim: 1 });
C.take_along_dim_flat = () => L(torch.take_along_dim)(x(), torch.tensor([5, 0]));
C.take_along_dim_bcast = () => L(torch.take_along_dim)(x(), torch.tensor([[0]]), { dim: 1 });
// See Note [take_along_dim's index wrap]
const xg = () => x().requires_grad_();
C.take_along_dim_neg = () => L(torch.take_along_dim)(x(), torch.tensor([[-1], [0]]), { dim: 1 });
C.take_along_dim_wrap = () => L(torch.take_along_dim)(x(), torch.tensor([[-5, 100, -100, 3]]), { dim: 1 });
C.take_along_dim_size0 = () => L(torch.take_along_dim)(torch.empty(2, 0), torch.tensor([[0]]), { dim: 1 });
C.take_along_dim_flat_neg = () => L(torch.take_along_dim)(x(), torch.tensor([-1]));
C.take_along_dim_neg_grad = () => {
  const leaf = xg();
  const y = L(torch.take_along_dim)(
    leaf,
    torch.tensor([
      [-1, -1],
      [0, -3],
    ]),
    { dim: 1 },
  ) as Tensor;
  return torch.autograd.grad(y.sum(), leaf);
};
C.take_along_dim_neg_grad_fn = () => L(torch.take_along_dim)(xg(), torch.tensor([[-1], [2]]), { dim: -1 });
const img = () => torch.arange(32, { dtype: 'float32' }).reshape([1, 2, 4, 4]);
const wt = () => torch.ones(3, 2, 3, 3).mul(0.1);
C.conv2d_same = () => L(torch.conv2d)(img(), wt(), { padding: 'same' });
C.conv2d_valid = () => L(torch.conv2d)(img(), wt(), { padding: 'valid' });
C.F_conv2d_same = () => F.conv2d(img(), wt(), { padding: 'same' });
C.conv2d_same_stride = () => L(torch.conv2d)(img(), wt(), { stride: 2, padding: 'same' });
C.narrow_tensor = () => L(torch.narrow)(x(), 1, torch.tensor(1), 2);
C.narrow_tensor_m = () => L(x().narrow.bind(x()))(1, torch.tensor(1), 2);
torch.tensor(
  [
    [3.0, 4.0],
    [0.3, 0.4],
    [6.0, 8.0],
  ],
  { dtype: 'float32' },
);
C.cat_out = () => L(torch.cat)([a(), b()], { out: torch.empty(0) });
C.gather_out = () => L(torch.gather)(x(), 1, torch.tensor([[0], [1]]), { out: torch.empty(0) });
C.index_select_out = () => L(torch.index_select)(x(), 1, torch.tensor([2]), { out: torch.empty(0) });
C.masked_select_out = () => L(torch.masked_select)(x(), x().gt(0), { out: torch.empty(0) });
C.arange_out = () => L(torch.arange)(0, 5, { out: torch.empty(0) });
C.nonzero_as_tuple = () => L(torch.nonzero)(x().gt(0), { as_tuple: true });
C.split_sizes = () => L(torch.split)(x(), [1, 2], 1);
C.split_sizes_m = () => L(x().split.bind(x()))([1, 1]);
C.norm_fro = () => L(torch.norm)(x(), 'fro');
C.norm_fro_dim = () => L(torch.norm)(x(), { p: 'fro', dim: 1 });
C.broadcast_tensors = () => L(torch.broadcast_tensors)(a(), x());
const mx = () => torch.empty(2, 3, { device: 'meta' });
C.meta_masked_select = () => torch.masked_select(mx(), torch.empty(2, 3, { dtype: 'bool', device: 'meta' }));
C.meta_one_hot = () => L(torch.one_hot)(torch.empty(3, { dtype: 'long', device: 'meta' }));
C.meta_one_hot_n = () => L(torch.one_hot)(torch.empty(3, { dtype: 'long', device: 'meta' }), 4);
C.meta_index_select = () => torch.index_select(mx(), 0, torch.empty(2, { dtype: 'long', device: 'meta' }));
C.meta_index_select1 = () => torch.index_select(mx(), 1, torch.empty(5, { dtype: 'long', device: 'meta' }));
C.meta_embedding = () => F.embedding(torch.empty(4, 2, { dtype: 'long', device: 'meta' }), torch.empty(10, 3, { device: 'meta' }));
C.meta_where_scalars = () => L(torch.where)(torch.empty(2, 3, { dtype: 'bool', device: 'meta' }), 1.5, -2.5);
C.meta_empty_overflow = () => torch.empty(2 ** 30, 2 ** 30, 2 ** 30, { device: 'meta' });
C.gather_int32 = () => torch.gather(x(), 1, torch.tensor([[0], [2]], { dtype: 'int32' }));
C.gather_empty_uint8 = () => torch.gather(x(), 1, torch.empty(0, 0, { dtype: 'uint8' }));
C.gather_0d = () => torch.gather(torch.tensor(3.0, { dtype: 'float32' }), 0, torch.tensor(0));
C.gather_0d_idx1 = () => torch.gather(torch.tensor(3.0, { dtype: 'float32' }), 0, torch.tensor([0, 0]));
C.expand_new_dim = () => torch.ones(3).expand(1, 3);
C.expand_new_dims = () => torch.ones(3, 1).expand(1, 2, 3, 4);
C.expand_size1_kept = () => torch.ones(1, 3).expand(1, 3);
C.outer_bool = () => torch.outer(torch.tensor([true, false]), torch.tensor([true, true, false]));
C.linspace_int64 = () => torch.linspace(0, 10, 7, { dtype: 'int64' });
C.linspace_int64_neg = () => torch.linspace(-5, 7, 5, { dtype: 'int64' });
C.linspace_int32 = () => torch.linspace(3, -4, 6, { dtype: 'int32' });
C.masked_select_grad_0d_mask = () => {
  const t = torch.tensor([1.0, 2.0], { dtype: 'float32', requires_grad: true });
  torch.masked_select(t, torch.tensor(true)).sum().backward();
  return t.grad;
};
C.index_select_neg = () => torch.index_select(x(), 1, torch.tensor([-1]));
C.index_select_oob = () => torch.index_select(x(), 1, torch.tensor([3]));
const xt = () => torch.arange(6, { dtype: 'float32' }).reshape([2, 3]).t();
C.clone_transposed = () => xt().clone();
const cl = () => torch.arange(96, { dtype: 'float32' }).reshape([2, 3, 4, 4]).contiguous({ memory_format: torch.channels_last });
C.cat_channels_last = () => torch.cat([cl(), cl()], 0);
C.cat_channels_last1 = () => torch.cat([cl(), cl()], 1);
C.clone_channels_last = () => cl().clone();
C.pow_int_int = () => L(torch.pow)(2, 3);
C.arange_inf = () => torch.arange(0, Infinity);
C.dot_err_dtype_shape = () => torch.dot(torch.ones(3), torch.ones(4, { dtype: 'float64' }));
C.dot_err_2d = () => torch.dot(torch.ones(2, 2), torch.ones(3, { dtype: 'float64' }));
C.scatter_dims_err = () => torch.zeros(3, 3).scatter(0, torch.zeros(2, 2, 2, { dtype: 'long' }), torch.ones(2, 2));
C.scatter_dims_err2 = () => torch.zeros(3, 3).scatter(0, torch.zeros(2, 5, { dtype: 'long' }), torch.ones(2, 2));
C.max_pool2d_zero = () => torch.max_pool2d(torch.ones(1, 1, 0, 4), 2);
C.max_pool2d_zero_b = () => torch.max_pool2d(torch.ones(0, 1, 4, 4), 2);
C.roll_0d_nodim = () => torch.roll(torch.tensor(1.0, { dtype: 'float32' }), 1);
const g = () => torch.tensor([1.5, 2.5], { requires_grad: true });
const g2 = () =>
  torch.tensor(
    [
      [1.0, 2.0],
      [3.0, 4.0],
    ],
    { dtype: 'float32', requires_grad: true },
  );
C.gf_pow0 = () => g().pow(2);
C.gf_pow1 = () => {
  const v = g();
  return v.pow(v);
};
C.gf_pow2 = () => torch.pow(2, g());
C.gf_div_mode = () => g().div(2, { rounding_mode: 'trunc' });
C.gf_div_mode_t = () => {
  const v = g();
  return v.div(v, { rounding_mode: 'floor' });
};
C.gf_remainder = () => {
  const v = g();
  return v.remainder(v);
};
C.gf_remainder_s = () => g().remainder(2);
C.gf_fmod = () => {
  const v = g();
  return v.fmod(v);
};
C.gf_fmod_s = () => g().fmod(2);
C.gf_clamp = () => g().clamp(0, 2);
C.gf_clamp_t = () => {
  const v = g();
  return v.clamp(v, v);
};
C.gf_index_put = () => g().index_put([torch.tensor([0])], torch.tensor(1.0, { dtype: 'float32' }));
C.gf_chunk = () => g2().chunk(2);
C.gf_tile = () => g2().tile([2]);
C.gf_outer = () => {
  const v = g();
  return torch.outer(v, v);
};
C.gf_l1 = () => F.l1_loss(g(), torch.zeros(2));
C.softmax_kw = () => torch.softmax(x(), { dim: 1 });
C.sum_kw = () => x().sum({ dim: 1, keepdim: true });
C.max_kw = () => torch.max(x(), { dim: 1 });
C.max_pool2d_kw = () => torch.max_pool2d(img(), { kernel_size: 2 });
C.arange_kw_end = () => torch.arange(0, { end: 5 });
C.arange_out_kw = () => torch.arange(0, { end: 5, out: torch.empty(0) });
C.backward_retain = () => {
  const w = torch.tensor([1.0, 2.0], { dtype: 'float32', requires_grad: true });
  const l = w.mul(w).sum();
  l.backward(null, { retain_graph: true });
  l.backward();
  return w.grad;
};
C.backward_kw = () => {
  const w = torch.tensor([1.0, 2.0], { dtype: 'float32', requires_grad: true });
  const l = w.mul(w).sum();
  l.backward({ retain_graph: true });
  l.backward();
  return w.grad;
};
C.backward_bad_key = () => {
  const w = torch.tensor([1.0, 2.0], { dtype: 'float32', requires_grad: true });
  const l = w.mul(w).sum();
  L(l.backward.bind(l))(null, { retain_grahp: true });
};
C.ones_requires_grad = () => torch.ones(2, { requiresGrad: true });
for (const red of ['mean', 'sum', 'none'] as const) {
  for (const name of ['mse', 'l1', 'smooth_l1', 'huber']) C[`${name}_${red}`] = () => byName(`${name}_loss`)(a(), b(), { reduction: red });
  C[`kl_div_${red}`] = () =>
    byName('kl_div')(torch.log(torch.tensor([0.2, 0.8], { dtype: 'float32' })), torch.tensor([0.5, 0.5], { dtype: 'float32' }), {
      reduction: red,
    });
  C[`bcel_${red}`] = () => F.binary_cross_entropy_with_logits(a(), torch.tensor([0.0, 1.0, 1.0], { dtype: 'float32' }), { reduction: red });
}
C.to_float64 = () => x().to('float64');
C.ndim = () => x().ndim;
C.dim = () => x().dim();
C.numel = () => x().numel();
C.float = () => torch.tensor([1, 2]).float();
C.double = () => torch.tensor([1, 2]).double();
C.long = () => x().long();
C.int = () => x().int();
C.bool = () => x().bool();
C.max_m = () => x().max();
C.min_m = () => x().min();

const clT = () => torch.arange(24, { dtype: 'float32' }).reshape([1, 2, 3, 4]);
C.contiguous_cl = () => clT().contiguous({ memory_format: torch.channels_last });
C.contiguous_cl_back = () => cl().contiguous();
C.contiguous_cl_same = () => cl().contiguous({ memory_format: torch.channels_last });
C.contiguous_cl_3d = () => torch.ones(2, 3, 4).contiguous({ memory_format: torch.channels_last });
C.contiguous_preserve = () => xt().contiguous({ memory_format: torch.preserve_format });
C.is_contiguous_cl = () => [
  cl().is_contiguous(),
  cl().is_contiguous({ memory_format: torch.channels_last }),
  x().is_contiguous({ memory_format: torch.channels_last }),
];
C.is_contiguous_positional = () => L(x().is_contiguous.bind(x()))(torch.channels_last);
C.cat_mixed_formats = () => torch.cat([cl(), cl().contiguous()], 0);
const cl64 = (): Tensor => torch.arange(96, { dtype: 'float64' }).reshape([2, 3, 4, 4]).contiguous({ memory_format: torch.channels_last });
C.cat_cl_dtypes = () => torch.cat([cl(), cl64()], 1);
const mcl = (): Tensor => torch.empty(2, 3, 4, 4, { device: 'meta' }).contiguous({ memory_format: torch.channels_last });
C.meta_cat_channels_last = () => torch.cat([mcl(), mcl()], 2);
const x5 = (): Tensor => torch.arange(144, { dtype: 'float32' }).reshape([2, 3, 2, 3, 4]);
const cl3 = (): Tensor => x5().contiguous({ memory_format: torch.channels_last_3d });
C.contiguous_cl3d = () => x5().contiguous({ memory_format: torch.channels_last_3d });
C.is_contiguous_cl3d = () => [
  cl3().is_contiguous(),
  cl3().is_contiguous({ memory_format: torch.channels_last_3d }),
  x5().is_contiguous({ memory_format: torch.channels_last_3d }),
];
C.clone_cl3d = () => x5().clone({ memory_format: torch.channels_last_3d });
C.clone_cl3d_preserve = () => cl3().clone();
C.contiguous_cl3d_rank4 = () => torch.ones(2, 3, 4, 5).contiguous({ memory_format: torch.channels_last_3d });
C.to_memory_format_cl = () => clT().to({ memory_format: torch.channels_last });
C.to_memory_format_cl3d = () => x5().to({ memory_format: torch.channels_last_3d });
C.to_memory_format_cl3d_same = () => cl3().to({ memory_format: torch.channels_last_3d }).stride();
C.meta_empty_overflow_f64 = () => torch.empty(2 ** 31, 2 ** 30, { dtype: 'float64', device: 'meta' });
C.meta_empty_stride_overflow = () => torch.empty(0, 2 ** 62, 2 ** 62, { device: 'meta' });
C.meta_empty_large_ok = () => torch.empty(2 ** 31, 2 ** 30, 2, { dtype: 'int8', device: 'meta' });
C.meta_empty_strided_numel = () => torch.empty_strided([2 ** 32, 2 ** 32], [2 ** 32, 1], { device: 'meta' });
C.meta_empty_strided_ok = () => torch.empty_strided([2 ** 31, 2 ** 31], [2 ** 31, 1], { device: 'meta' });
C.empty_strided_overflow = () => torch.empty_strided([2 ** 31, 2 ** 31], [2 ** 31, 1]);
C.meta_zeros_overflow = () => torch.zeros(2 ** 40, 2 ** 40, { device: 'meta' });

const ge = (): Tensor =>
  torch.tensor(
    [
      [-1.0, 0.5, 2.0],
      [3.0, -0.25, 0.0],
    ],
    { requires_grad: true },
  );
const gy = (): Tensor =>
  torch.tensor(
    [
      [0.5, 0.5, 1.0],
      [1.0, 1.0, -2.0],
    ],
    { dtype: 'float32' },
  );
const im = (): Tensor => torch.arange(36, { dtype: 'float32' }).reshape([2, 2, 3, 3]);
C.F_elu = () => F.elu(ge(), { alpha: 0.5 });
C.F_elu_inplace = () => F.elu(gy().clone(), 0.5, true);
C.F_selu = () => F.selu(ge());
C.F_softplus = () => F.softplus(ge(), { beta: 2, threshold: 1 });
C.F_hardswish = () => F.hardswish(ge());
C.F_mish = () => F.mish(ge());
C.F_one_hot = () => F.one_hot(torch.tensor([0, 2, 1]), 4);
C.F_one_hot_infer = () => F.one_hot(torch.tensor([0, 2]));
C.F_huber = () => F.huber_loss(ge(), gy(), { delta: 0.5 });
C.F_huber_none = () => F.huber_loss(ge(), gy(), { reduction: 'none' });
for (const red of ['mean', 'sum', 'none'] as const) {
  C[`F_huber_weight_${red}`] = () =>
    F.huber_loss(ge(), gy(), {
      reduction: red,
      weight: torch.tensor(
        [
          [1.0, 2.0, 0.5],
          [0.0, 1.0, 3.0],
        ],
        { dtype: 'float32' },
      ),
    });
}
C.F_normalize = () => F.normalize(ge());
C.F_normalize_p1_dim0 = () => F.normalize(ge(), { p: 1, dim: 0 });
C.F_normalize_eps = () =>
  F.normalize(
    torch.tensor(
      [
        [0, 0],
        [3, 4],
      ],
      { dtype: 'float32' },
    ),
    { eps: 10.0 },
  );
C.F_normalize_out = () => F.normalize(gy(), { out: torch.empty(0) });
C.F_cosine_similarity = () => F.cosine_similarity(ge(), gy());
C.F_cosine_similarity_dim0 = () => F.cosine_similarity(ge(), gy(), { dim: 0 });
C.F_pairwise_distance = () => F.pairwise_distance(ge(), gy(), { keepdim: true });
C.F_interp_nearest_size = () => F.interpolate(im(), { size: [4, 5] });
C.F_interp_nearest_scale = () => F.interpolate(im(), { scale_factor: 2 });
C.F_interp_nearest_scale_frac = () => F.interpolate(im(), { scale_factor: [1.5, 0.7] });
C.F_interp_bilinear = () => F.interpolate(im(), { size: 4, mode: 'bilinear' });
C.F_interp_bilinear_ac = () => F.interpolate(im(), { size: [5, 4], mode: 'bilinear', align_corners: true });
C.F_interp_bilinear_scale = () => F.interpolate(im(), { scale_factor: 1.5, mode: 'bilinear' });
C.F_interp_bilinear_recompute = () => F.interpolate(im(), { scale_factor: 1.5, mode: 'bilinear', recompute_scale_factor: true });
C.F_interp_grad_fn = () => F.interpolate(im().clone().requires_grad_(), { scale_factor: 2, mode: 'bilinear' });
C.F_interp_meta = () => F.interpolate(torch.empty(2, 3, 5, 6, { device: 'meta' }), { scale_factor: 0.5 });
C.F_interp_both = () => F.interpolate(im(), { size: 4, scale_factor: 2 });
C.F_interp_neither = () => F.interpolate(im());
C.F_interp_nearest_ac = () => F.interpolate(im(), { size: 4, align_corners: true });
C.F_huber_weight_size = () => F.huber_loss(ge(), gy(), { weight: torch.tensor([1.0, 2.0, 0.5], { dtype: 'float32' }) });
C.F_interp_scale_len = () => F.interpolate(im(), { scale_factor: [2.0] });
C.F_interp_size_len = () => F.interpolate(im(), { size: [4, 4, 4] });
C.F_interp_recompute_size = () => F.interpolate(im(), { size: 4, recompute_scale_factor: true });

describe('the calls a PyTorch user types (api_overloads.json)', () => {
  // kl_div's reduction='mean' warns as PyTorch does; the warnings are not what this file checks
  let previous: ReturnType<typeof setWarningHandler>;
  beforeEach(() => {
    previous = setWarningHandler(() => undefined);
  });
  afterEach(() => {
    setWarningHandler(previous);
  });

  it('covers every golden case', () => {
    expect(Object.keys(C).sort()).toEqual(Object.keys(golden.cases).sort());
  });

  for (const [id, c] of Object.entries(golden.cases)) {
    it(id, () => {
      const run = C[id]!;
      if (c.error !== undefined) {
        let message = '<no error>';
        try {
          run();
        } catch (e) {
          message = (e as Error).message.split('\n')[0]!;
        }
        expect(message).toBe(c.error);
        return;
      }
      checkResult(id, run(), c.result!, API_TOLERANCE);
    });
  }
});
