"""Golden fixture for the calls a PyTorch user types (part 2 of api_forms): every example the
forms helper tried, as the wheel answers it — the missing overloads, Meta shapes and errors, values, memory
formats (clone/cat/contiguous of channels-last tensors), error texts and check orders, grad_fn names, and the
API forms (keywords, backward options, reduction by name, conversions). test/api/api_overloads.test.ts writes
the same call in TypeScript for each id. Results are {dtype, sizes, strides, values (not for Meta),
grad_fn, device} of one tensor or a list of them, {value} for a plain value, or the first line of the error.

Run: $PYTHON tools/golden/gen_api_overloads.py  ->  test/golden/api_overloads.json
"""
import json
import math
import os
import warnings

import torch
import torch.nn.functional as F

from _encode import spec as _spec


def spec(r):
    return _spec(r, ('dtype', 'sizes', 'strides', 'grad_fn', 'device', 'values'), torch_dtype=True, meta_values='omit')

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'api_overloads.json')
warnings.simplefilter('ignore')

cases = {}
def case(cid, call):
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:
        cases[cid] = {'error': str(e).split('\n')[0], 'error_type': type(e).__name__}

x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
a = torch.tensor([1.0, 5.0, 3.0]); b = torch.tensor([2.0, 4.0, 3.0])
# Missing overloads
case('max_all', lambda: torch.max(x)); case('min_all', lambda: torch.min(x))
case('max_other', lambda: torch.max(a, b)); case('min_other', lambda: torch.min(a, b))
case('var_unbiased', lambda: torch.var(x, unbiased=False)); case('std_unbiased', lambda: torch.std(x, 1, False))
case('var_unbiased_m', lambda: x.var(0, True)); case('std_unbiased_m', lambda: x.std(unbiased=False))
case('sort_stable', lambda: torch.sort(torch.tensor([2, 1, 2, 1, 0]), stable=True))
case('argsort_stable', lambda: torch.argsort(torch.tensor([2, 1, 2, 1, 0]), stable=True, descending=True))
case('scatter_reduce_add', lambda: torch.zeros(2, 3).scatter(1, torch.tensor([[0, 1], [2, 2]]), torch.ones(2, 2), reduce='add'))
case('scatter_reduce_mul_value', lambda: torch.full((2, 3), 2.0).scatter(1, torch.tensor([[0, 1], [2, 2]]), 3.0, reduce='multiply'))
case('take_along_dim', lambda: torch.take_along_dim(x, torch.tensor([[0], [2]]), dim=1))
case('take_along_dim_flat', lambda: torch.take_along_dim(x, torch.tensor([5, 0])))
case('take_along_dim_bcast', lambda: torch.take_along_dim(x, torch.tensor([[0]]), dim=1))
xg = x.clone().requires_grad_()
case('take_along_dim_neg', lambda: torch.take_along_dim(x, torch.tensor([[-1], [0]]), dim=1))
case('take_along_dim_wrap', lambda: torch.take_along_dim(x, torch.tensor([[-5, 100, -100, 3]]), dim=1))
case('take_along_dim_size0', lambda: torch.take_along_dim(torch.empty(2, 0), torch.tensor([[0]]), dim=1))
case('take_along_dim_flat_neg', lambda: torch.take_along_dim(x, torch.tensor([-1])))
case('take_along_dim_neg_grad', lambda: torch.autograd.grad(torch.take_along_dim(xg, torch.tensor([[-1, -1], [0, -3]]), dim=1).sum(), xg))
case('take_along_dim_neg_grad_fn', lambda: torch.take_along_dim(xg, torch.tensor([[-1], [2]]), dim=-1))
img = torch.arange(32, dtype=torch.float32).reshape(1, 2, 4, 4); wt = torch.ones(3, 2, 3, 3) * 0.1
case('conv2d_same', lambda: torch.conv2d(img, wt, padding='same'))
case('conv2d_valid', lambda: torch.conv2d(img, wt, padding='valid'))
case('F_conv2d_same', lambda: F.conv2d(img, wt, padding='same'))
case('conv2d_same_stride', lambda: torch.conv2d(img, wt, stride=2, padding='same'))
case('narrow_tensor', lambda: torch.narrow(x, 1, torch.tensor(1), 2))
case('narrow_tensor_m', lambda: x.narrow(1, torch.tensor(1), 2))
emb_w = torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
case('cat_out', lambda: torch.cat([a, b], out=torch.empty(0)))
case('gather_out', lambda: torch.gather(x, 1, torch.tensor([[0], [1]]), out=torch.empty(0)))
case('index_select_out', lambda: torch.index_select(x, 1, torch.tensor([2]), out=torch.empty(0)))
case('masked_select_out', lambda: torch.masked_select(x, x > 0, out=torch.empty(0)))
case('arange_out', lambda: torch.arange(0, 5, out=torch.empty(0)))
case('nonzero_as_tuple', lambda: torch.nonzero(x > 0, as_tuple=True))
case('split_sizes', lambda: torch.split(x, [1, 2], 1))
case('split_sizes_m', lambda: x.split([1, 1]))
case('norm_fro', lambda: torch.norm(x, 'fro'))
case('norm_fro_dim', lambda: torch.norm(x, p='fro', dim=1))
case('broadcast_tensors', lambda: torch.broadcast_tensors(a, x))
# Meta
mx = torch.empty(2, 3, device='meta')
case('meta_masked_select', lambda: torch.masked_select(mx, torch.empty(2, 3, dtype=torch.bool, device='meta')))
case('meta_one_hot', lambda: F.one_hot(torch.empty(3, dtype=torch.long, device='meta')))
case('meta_one_hot_n', lambda: F.one_hot(torch.empty(3, dtype=torch.long, device='meta'), 4))
case('meta_index_select', lambda: torch.index_select(mx, 0, torch.empty(2, dtype=torch.long, device='meta')))
case('meta_index_select1', lambda: torch.index_select(mx, 1, torch.empty(5, dtype=torch.long, device='meta')))
case('meta_embedding', lambda: F.embedding(torch.empty(4, 2, dtype=torch.long, device='meta'), torch.empty(10, 3, device='meta')))
case('meta_where_scalars', lambda: torch.where(torch.empty(2, 3, dtype=torch.bool, device='meta'), 1.5, -2.5))
case('meta_empty_overflow', lambda: torch.empty(2**30, 2**30, 2**30, device='meta'))
# Values
case('gather_int32', lambda: torch.gather(x, 1, torch.tensor([[0], [2]], dtype=torch.int32)))
case('gather_empty_uint8', lambda: torch.gather(x, 1, torch.empty(0, 0, dtype=torch.uint8)))
case('gather_0d', lambda: torch.gather(torch.tensor(3.0), 0, torch.tensor(0)))
case('gather_0d_idx1', lambda: torch.gather(torch.tensor(3.0), 0, torch.tensor([0, 0])))
bi = torch.arange(8).reshape(2, 2, 2)
case('expand_new_dim', lambda: torch.ones(3).expand(1, 3))
case('expand_new_dims', lambda: torch.ones(3, 1).expand(1, 2, 3, 4))
case('expand_size1_kept', lambda: torch.ones(1, 3).expand(1, 3))
case('outer_bool', lambda: torch.outer(torch.tensor([True, False]), torch.tensor([True, True, False])))
case('linspace_int64', lambda: torch.linspace(0, 10, 7, dtype=torch.int64))
case('linspace_int64_neg', lambda: torch.linspace(-5, 7, 5, dtype=torch.int64))
case('linspace_int32', lambda: torch.linspace(3, -4, 6, dtype=torch.int32))
def ms_grad2():
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.masked_select(t, torch.tensor(True)).sum().backward()
    return t.grad


case('masked_select_grad_0d_mask', ms_grad2)
case('index_select_neg', lambda: torch.index_select(x, 1, torch.tensor([-1])))
case('index_select_oob', lambda: torch.index_select(x, 1, torch.tensor([3])))
# Memory format
xt = torch.arange(6.0).reshape(2, 3).t()
case('clone_transposed', lambda: xt.clone())
cl = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4).contiguous(memory_format=torch.channels_last)
case('cat_channels_last', lambda: torch.cat([cl, cl], 0))
case('cat_channels_last1', lambda: torch.cat([cl, cl], 1))
case('clone_channels_last', lambda: cl.clone())
# Errors
case('pow_int_int', lambda: torch.pow(2, 3))
case('arange_inf', lambda: torch.arange(0, math.inf))
case('dot_err_dtype_shape', lambda: torch.dot(torch.ones(3), torch.ones(4, dtype=torch.float64)))
case('dot_err_2d', lambda: torch.dot(torch.ones(2, 2), torch.ones(3, dtype=torch.float64)))
case('scatter_dims_err', lambda: torch.zeros(3, 3).scatter(0, torch.zeros(2, 2, 2, dtype=torch.long), torch.ones(2, 2)))
case('scatter_dims_err2', lambda: torch.zeros(3, 3).scatter(0, torch.zeros(2, 5, dtype=torch.long), torch.ones(2, 2)))
case('max_pool2d_zero', lambda: torch.max_pool2d(torch.ones(1, 1, 0, 4), 2))
case('max_pool2d_zero_b', lambda: torch.max_pool2d(torch.ones(0, 1, 4, 4), 2))
case('roll_0d_nodim', lambda: torch.roll(torch.tensor(1.0), 1))
# grad_fn names
g = torch.tensor([1.5, 2.5], requires_grad=True); g2 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
case('gf_pow0', lambda: g.pow(2)); case('gf_pow1', lambda: g.pow(g)); case('gf_pow2', lambda: torch.pow(2, g))
case('gf_div_mode', lambda: g.div(2, rounding_mode='trunc'))
case('gf_div_mode_t', lambda: g.div(g, rounding_mode='floor'))
case('gf_remainder', lambda: g.remainder(g)); case('gf_remainder_s', lambda: g.remainder(2))
case('gf_fmod', lambda: g.fmod(g)); case('gf_fmod_s', lambda: g.fmod(2))
case('gf_clamp', lambda: g.clamp(0, 2)); case('gf_clamp_t', lambda: g.clamp(g, g))
case('gf_index_put', lambda: g.index_put((torch.tensor([0]),), torch.tensor(1.0)))
case('gf_chunk', lambda: g2.chunk(2)); case('gf_tile', lambda: g2.tile(2))
case('gf_outer', lambda: torch.outer(g, g)); case('gf_l1', lambda: F.l1_loss(g, torch.zeros(2)))
# The API
case('softmax_kw', lambda: torch.softmax(x, dim=1))
case('sum_kw', lambda: x.sum(dim=1, keepdim=True))
case('max_kw', lambda: torch.max(x, dim=1))
case('max_pool2d_kw', lambda: torch.max_pool2d(img, kernel_size=2))
case('arange_kw_end', lambda: torch.arange(0, end=5))
case('arange_out_kw', lambda: torch.arange(0, end=5, out=torch.empty(0)))
def bw_retain():
    w = torch.tensor([1.0, 2.0], requires_grad=True); l = (w * w).sum()
    l.backward(None, retain_graph=True); l.backward(); return w.grad
case('backward_retain', bw_retain)
def bw_kw():
    w = torch.tensor([1.0, 2.0], requires_grad=True); l = (w * w).sum()
    l.backward(retain_graph=True); l.backward(); return w.grad
case('backward_kw', bw_kw)
def bw_bad():
    w = torch.tensor([1.0, 2.0], requires_grad=True); (w * w).sum().backward(None, retain_grahp=True)
case('backward_bad_key', bw_bad)
case('ones_requires_grad', lambda: torch.ones(2, requires_grad=True))
for red in ['mean', 'sum', 'none']:
    for name, fn in [('mse', F.mse_loss), ('l1', F.l1_loss), ('smooth_l1', F.smooth_l1_loss), ('huber', F.huber_loss)]:
        case(f'{name}_{red}', lambda fn=fn, red=red: fn(a, b, reduction=red))
    case(f'kl_div_{red}', lambda red=red: F.kl_div(torch.log(torch.tensor([0.2, 0.8])), torch.tensor([0.5, 0.5]), reduction=red))
    case(f'bcel_{red}', lambda red=red: F.binary_cross_entropy_with_logits(a, torch.tensor([0.0, 1.0, 1.0]), reduction=red))
case('to_float64', lambda: x.to(torch.float64))
case('ndim', lambda: x.ndim); case('dim', lambda: x.dim()); case('numel', lambda: x.numel())
case('float', lambda: torch.tensor([1, 2]).float()); case('double', lambda: torch.tensor([1, 2]).double())
case('long', lambda: x.long()); case('int', lambda: x.int()); case('bool', lambda: x.bool())
case('max_m', lambda: x.max()); case('min_m', lambda: x.min())
# ---- memory formats by name (contiguous / is_contiguous / cat) --------------------------------------------
case('contiguous_cl', lambda: torch.arange(24.0).reshape(1, 2, 3, 4).contiguous(memory_format=torch.channels_last))
case('contiguous_cl_back', lambda: cl.contiguous())
case('contiguous_cl_same', lambda: cl.contiguous(memory_format=torch.channels_last))
case('contiguous_cl_3d', lambda: torch.ones(2, 3, 4).contiguous(memory_format=torch.channels_last))
case('contiguous_preserve', lambda: xt.contiguous(memory_format=torch.preserve_format))
case('is_contiguous_cl', lambda: [cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last), x.is_contiguous(memory_format=torch.channels_last)])
case('is_contiguous_positional', lambda: x.is_contiguous(torch.channels_last))
case('cat_mixed_formats', lambda: torch.cat([cl, cl.contiguous()], 0))
cl64 = torch.arange(96, dtype=torch.float64).reshape(2, 3, 4, 4).contiguous(memory_format=torch.channels_last)
case('cat_cl_dtypes', lambda: torch.cat([cl, cl64], 1))
mcl = torch.empty(2, 3, 4, 4, device='meta').contiguous(memory_format=torch.channels_last)
case('meta_cat_channels_last', lambda: torch.cat([mcl, mcl], 2))
x5 = torch.arange(144, dtype=torch.float32).reshape(2, 3, 2, 3, 4)
cl3 = x5.contiguous(memory_format=torch.channels_last_3d)
case('contiguous_cl3d', lambda: x5.contiguous(memory_format=torch.channels_last_3d))
case('is_contiguous_cl3d', lambda: [cl3.is_contiguous(), cl3.is_contiguous(memory_format=torch.channels_last_3d), x5.is_contiguous(memory_format=torch.channels_last_3d)])
case('clone_cl3d', lambda: x5.clone(memory_format=torch.channels_last_3d))
case('clone_cl3d_preserve', lambda: cl3.clone())
case('contiguous_cl3d_rank4', lambda: torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d))
case('to_memory_format_cl', lambda: torch.arange(24.0).reshape(1, 2, 3, 4).to(memory_format=torch.channels_last))
case('to_memory_format_cl3d', lambda: x5.to(memory_format=torch.channels_last_3d))
case('to_memory_format_cl3d_same', lambda: cl3.to(memory_format=torch.channels_last_3d).stride())
# ---- storage-size overflow --------------------------------------------------------------------------------
case('meta_empty_overflow_f64', lambda: torch.empty(2**31, 2**30, dtype=torch.float64, device='meta'))
case('meta_empty_stride_overflow', lambda: torch.empty(0, 2**62, 2**62, device='meta'))
case('meta_empty_large_ok', lambda: torch.empty(2**31, 2**30, 2, dtype=torch.int8, device='meta'))
case('meta_empty_strided_numel', lambda: torch.empty_strided((2**32, 2**32), (2**32, 1), device='meta'))
case('meta_empty_strided_ok', lambda: torch.empty_strided((2**31, 2**31), (2**31, 1), device='meta'))
case('empty_strided_overflow', lambda: torch.empty_strided((2**31, 2**31), (2**31, 1)))
case('meta_zeros_overflow', lambda: torch.zeros(2**40, 2**40, device='meta'))

# ---- nn.functional's functions (F.elu ... F.interpolate) ----------------------------------------------------
ge = torch.tensor([[-1.0, 0.5, 2.0], [3.0, -0.25, 0.0]], requires_grad=True)
gy = torch.tensor([[0.5, 0.5, 1.0], [1.0, 1.0, -2.0]])
im = torch.arange(2 * 2 * 3 * 3, dtype=torch.float32).reshape(2, 2, 3, 3)
case('F_elu', lambda: F.elu(ge, alpha=0.5))
case('F_elu_inplace', lambda: F.elu(gy.clone(), 0.5, True))
case('F_selu', lambda: F.selu(ge))
case('F_softplus', lambda: F.softplus(ge, beta=2, threshold=1))
case('F_hardswish', lambda: F.hardswish(ge))
case('F_mish', lambda: F.mish(ge))
case('F_one_hot', lambda: F.one_hot(torch.tensor([0, 2, 1]), 4))
case('F_one_hot_infer', lambda: F.one_hot(torch.tensor([0, 2])))
case('F_huber', lambda: F.huber_loss(ge, gy, delta=0.5))
case('F_huber_none', lambda: F.huber_loss(ge, gy, reduction='none'))
for red in ['mean', 'sum', 'none']:
    case(f'F_huber_weight_{red}', lambda red=red: F.huber_loss(ge, gy, reduction=red, weight=torch.tensor([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0]])))
case('F_huber_weight_size', lambda: F.huber_loss(ge, gy, weight=torch.tensor([1.0, 2.0, 0.5])))
case('F_normalize', lambda: F.normalize(ge))
case('F_normalize_p1_dim0', lambda: F.normalize(ge, p=1, dim=0))
case('F_normalize_eps', lambda: F.normalize(torch.tensor([[0.0, 0.0], [3.0, 4.0]]), eps=10.0))
case('F_normalize_out', lambda: F.normalize(gy, out=torch.empty(0)))
case('F_cosine_similarity', lambda: F.cosine_similarity(ge, gy))
case('F_cosine_similarity_dim0', lambda: F.cosine_similarity(ge, gy, dim=0))
case('F_pairwise_distance', lambda: F.pairwise_distance(ge, gy, keepdim=True))
case('F_interp_nearest_size', lambda: F.interpolate(im, size=(4, 5)))
case('F_interp_nearest_scale', lambda: F.interpolate(im, scale_factor=2))
case('F_interp_nearest_scale_frac', lambda: F.interpolate(im, scale_factor=(1.5, 0.7)))
case('F_interp_bilinear', lambda: F.interpolate(im, size=4, mode='bilinear'))
case('F_interp_bilinear_ac', lambda: F.interpolate(im, size=(5, 4), mode='bilinear', align_corners=True))
case('F_interp_bilinear_scale', lambda: F.interpolate(im, scale_factor=1.5, mode='bilinear'))
case('F_interp_bilinear_recompute', lambda: F.interpolate(im, scale_factor=1.5, mode='bilinear', recompute_scale_factor=True))
case('F_interp_grad_fn', lambda: F.interpolate(im.clone().requires_grad_(), scale_factor=2, mode='bilinear'))
case('F_interp_meta', lambda: F.interpolate(torch.empty(2, 3, 5, 6, device='meta'), scale_factor=0.5))
case('F_interp_both', lambda: F.interpolate(im, size=4, scale_factor=2))
case('F_interp_neither', lambda: F.interpolate(im))
case('F_interp_nearest_ac', lambda: F.interpolate(im, size=4, align_corners=True))
case('F_interp_size_len', lambda: F.interpolate(im, size=[4, 4, 4]))
case('F_interp_scale_len', lambda: F.interpolate(im, scale_factor=[2.0]))
case('F_interp_recompute_size', lambda: F.interpolate(im, size=4, recompute_scale_factor=True))

out = {
    'generated_by': 'tools/golden/gen_api_overloads.py',
    'torch_version': torch.__version__,
    'cases': cases,
}
with open(OUT, 'w') as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write('\n')
print(f'wrote {OUT}: {len(cases)} cases')
