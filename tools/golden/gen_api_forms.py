"""Golden fixture for the forms a PyTorch user types ("The API a PyTorch user types"): every
argument by keyword (required ones included), unknown keywords (the parser's and Python's own texts, the
autograd API included), dtypes by name, the Tensor properties (T, mT, H, mH, ndim) and conversions
(float(), double(), long(), int(), bool()), and losses with a string `reduction`.

Each case is keyed by an id; test/api/kwargs.test.ts writes the same call in TypeScript for each id.
Results are {dtype, sizes, values, grad_fn} of one tensor or a list of them, or the first line of the error.

Run: $PYTHON tools/golden/gen_api_forms.py  ->  test/golden/api_forms.json
"""
import json
import os

import torch
import torch.nn.functional as F

from _encode import spec as _spec


def spec(r):
    return _spec(r, ('dtype', 'sizes', 'strides', 'values', 'grad_fn'), torch_dtype=True)

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'api_forms.json')


cases = {}


def case(cid, call):
    assert cid not in cases, cid
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:  # noqa: BLE001
        cases[cid] = {'error': str(e).split('\n')[0], 'error_type': type(e).__name__}


x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
img = torch.arange(12, dtype=torch.float32).reshape(1, 1, 3, 4)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
t3 = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)

# ---- every argument by keyword ----------------------------------------------------------------------
case('softmax_kw_dim', lambda: torch.softmax(x, dim=1))
case('softmax_kw_dim_dtype', lambda: torch.softmax(x, dim=0, dtype=torch.float64))
case('sum_kw_dim_keepdim', lambda: x.sum(dim=1, keepdim=True))
case('max_kw_dim', lambda: torch.max(x, dim=1))
case('max_kw_dim_keepdim', lambda: x.max(dim=0, keepdim=True))
case('max_pool2d_kw_kernel', lambda: torch.max_pool2d(img, kernel_size=2))
case('max_pool2d_kw_all', lambda: torch.max_pool2d(img, kernel_size=2, stride=1, padding=1))
case('arange_kw_end', lambda: torch.arange(0, end=5))
case('arange_only_end_kw', lambda: torch.arange(end=3))
case('arange_start_end_kw', lambda: torch.arange(start=2, end=6))
case('arange_step_kw', lambda: torch.arange(1, 10, step=3))
case('arange_out', lambda: torch.arange(1, 4, out=torch.empty(2)))
case('arange_out_int', lambda: torch.arange(5, out=torch.zeros(5, dtype=torch.int32)))
case('transpose_kw', lambda: x.transpose(dim0=0, dim1=1))
case('gather_kw', lambda: torch.gather(x, dim=1, index=torch.tensor([[0, 0], [1, 2]])))
case('add_kw_other', lambda: torch.add(x, other=x, alpha=2))
case('view_kw_size', lambda: x.view(size=[3, 2]))
case('zeros_kw_size', lambda: torch.zeros(size=[2, 1]))
case('index_select_kw', lambda: x.index_select(dim=1, index=torch.tensor([2, 0])))
# ---- unknown and repeated keywords -----------------------------------------------------------------
case('softmax_dims', lambda: torch.softmax(x, dims=1))
case('softmax_dim_dims', lambda: torch.softmax(x, 1, dims=1))
case('softmax_dim_twice', lambda: torch.softmax(x, 1, dim=1))
case('zeros_dims', lambda: torch.zeros(2, dims=1))
case('tensor_dtpe', lambda: torch.tensor([1], dtpe=torch.float32))
case('arange_ends', lambda: torch.arange(0, ends=5))
case('gelu_approx', lambda: torch.nn.functional.gelu(x, approx='tanh'))
case('backward_retain_grap', lambda: (w * w).sum().backward(retain_grap=True))
case('grad_allow_unuse', lambda: torch.autograd.grad((w * w).sum(), w, allow_unuse=True))
case('autograd_backward_bad', lambda: torch.autograd.backward((w * w).sum(), retain_grap=True))
case('ones_requires_grad', lambda: torch.ones(2, requires_grad=True))
case('tensor_requires_grad_int', lambda: torch.tensor([1, 2], requires_grad=True))


def backward_twice():
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    loss = (v * v).sum()
    loss.backward(None, retain_graph=True)
    loss.backward()
    return v.grad


def backward_kw_only():
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (v * v).sum().backward(retain_graph=True)
    return v.grad


def backward_gradient_kw():
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (v * v).backward(gradient=torch.tensor([1.0, 2.0, 3.0]))
    return v.grad


def backward_freed():
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    loss = (v * v).sum()
    loss.backward()
    loss.backward()


case('backward_retain_graph', backward_twice)
case('backward_kw_only', backward_kw_only)
case('backward_gradient_kw', backward_gradient_kw)
case('backward_freed', backward_freed)
case('grad_create_graph', lambda: torch.autograd.grad((w * w).sum(), w, create_graph=True))
# ---- dtypes by name ----------------------------------------------------------------------------------
case('str_dtype', lambda: str(x.dtype))
case('str_dtype_long', lambda: str(torch.long))
case('to_float64', lambda: x.to(torch.float64))
case('to_kw_dtype', lambda: x.to(dtype=torch.float64))
case('to_device_dtype', lambda: x.to('cpu', torch.int32))
case('to_other', lambda: x.to(torch.tensor([1], dtype=torch.int64)))
case('zeros_dtype_double', lambda: torch.zeros(2, dtype=torch.double))
case('ones_dtype_long', lambda: torch.ones(2, dtype=torch.long))
# ---- properties and conversions -------------------------------------------------------------------------
case('T_2d', lambda: x.T)
case('T_2d_grad_fn', lambda: (w.reshape(1, 3)).T)
case('mT_3d', lambda: t3.mT)
case('mT_1d', lambda: torch.ones(3).mT)
case('H_2d', lambda: x.H)
case('H_1d', lambda: torch.ones(3).H)
case('mH_3d', lambda: t3.mH)
case('ndim', lambda: t3.ndim)
case('dim', lambda: t3.dim())
case('numel', lambda: t3.numel())
case('nelement', lambda: t3.nelement())
case('grad_fn_name', lambda: (w * 2).grad_fn.name())
case('is_leaf', lambda: [w.is_leaf, (w * 2).is_leaf])
case('requires_grad_attr', lambda: [w.requires_grad, x.requires_grad])
case('requires_grad_method', lambda: torch.ones(2).requires_grad_().requires_grad)
case('float', lambda: torch.tensor([1, 2]).float())
case('double', lambda: torch.tensor([1, 2]).double())
case('long', lambda: torch.tensor([1.5, -2.5]).long())
case('int', lambda: torch.tensor([1.5, -2.5]).int())
case('bool', lambda: torch.tensor([0.0, 2.0]).bool())
case('half', lambda: torch.tensor([1.5, 2.0]).half())
# ---- losses with reduction by name ------------------------------------------------------------------------
inp = torch.tensor([[0.2, -1.0, 0.5], [1.5, 0.3, -0.7]], requires_grad=True)
tgt = torch.tensor([[0.0, -0.5, 1.0], [1.0, 1.0, -1.0]])
cls = torch.tensor([2, 0])
prob = torch.tensor([[0.2, 0.9, 0.5], [0.6, 0.1, 0.7]], requires_grad=True)
lbl = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
for red in ['mean', 'sum', 'none']:
    case(f'mse_loss_{red}', lambda red=red: F.mse_loss(inp, tgt, reduction=red))
    case(f'l1_loss_{red}', lambda red=red: F.l1_loss(inp, tgt, reduction=red))
    case(f'nll_loss_{red}', lambda red=red: F.nll_loss(F.log_softmax(inp, 1), cls, reduction=red))
    case(f'cross_entropy_{red}', lambda red=red: F.cross_entropy(inp, cls, reduction=red))
    case(f'binary_cross_entropy_{red}', lambda red=red: F.binary_cross_entropy(prob, lbl, reduction=red))
    case(f'bce_with_logits_{red}', lambda red=red: F.binary_cross_entropy_with_logits(inp, lbl, reduction=red))
def _max_grad():
    a = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    torch.max(a).backward()
    return a.grad


# ---- overloads ("Missing overloads") -----------------------------------------------------------------
v = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
m = torch.tensor([[1.0, 0.0, -2.0], [0.0, 4.0, 1.5]])
case('max_all', lambda: torch.max(v))
case('min_all_method', lambda: v.min())
case('max_all_empty', lambda: torch.max(torch.ones(0)))
case('max_other', lambda: torch.max(v, torch.zeros(4)))
case('min_other_method', lambda: v.min(torch.full((4,), 2.0)))
case('max_all_grad', _max_grad)
case('var_unbiased_false', lambda: v.var(False))
case('var_kw_unbiased', lambda: v.var(unbiased=False))
case('std_dim_unbiased', lambda: torch.std(m, 1, True))
case('var_dim_kw', lambda: torch.var(m, dim=0, unbiased=False, keepdim=True))
case('sort_stable', lambda: torch.sort(v, stable=True))
case('sort_stable_desc', lambda: torch.sort(m, stable=True, dim=0, descending=True))
case('argsort_stable', lambda: v.argsort(stable=True, descending=True))
case('split_sizes', lambda: v.split([1, 3]))
case('split_sizes_fn', lambda: torch.split(m, [2, 1], dim=1))
case('broadcast_tensors', lambda: torch.broadcast_tensors(v, torch.ones(2, 1)))
case('take_along_dim_flat', lambda: torch.take_along_dim(v, torch.tensor([0, 2])))
case('take_along_dim_dim', lambda: torch.take_along_dim(m, torch.tensor([[2], [0]]), dim=1))
case('take_along_dim_int32', lambda: torch.take_along_dim(m, torch.tensor([[2], [0]], dtype=torch.int32), dim=1))
case('narrow_tensor', lambda: torch.narrow(v, 0, torch.tensor(1), 2))
case('nonzero_as_tuple', lambda: torch.nonzero(m, as_tuple=True))
case('nonzero_as_tuple_method', lambda: m.nonzero(as_tuple=True))
case('nonzero_as_tuple_0d', lambda: torch.nonzero(torch.tensor(5.0), as_tuple=True))
case('norm_fro', lambda: torch.norm(m, 'fro'))
case('norm_fro_dim', lambda: torch.norm(m, 'fro', dim=1))
case('norm_p1_kw', lambda: torch.norm(m, p=1))
case('cat_out', lambda: torch.cat([m, m], out=torch.empty(0)))
case('cat_out_double', lambda: torch.cat([m, m], out=torch.empty(0, dtype=torch.float64)))
case('gather_out', lambda: torch.gather(m, 1, torch.tensor([[0], [1]]), out=torch.empty(0)))
case('gather_out_double', lambda: torch.gather(m, 1, torch.tensor([[0], [1]]), out=torch.empty(0, dtype=torch.float64)))
case('index_select_out', lambda: torch.index_select(m, 0, torch.tensor([1]), out=torch.empty(0)))
case('index_select_out_double', lambda: torch.index_select(m, 0, torch.tensor([1]), out=torch.empty(0, dtype=torch.float64)))
case('masked_select_out', lambda: torch.masked_select(m, m > 0, out=torch.empty(0)))
case('masked_select_out_double', lambda: torch.masked_select(m, m > 0, out=torch.empty(0, dtype=torch.float64)))
# ---- frombuffer ----------------------------------------------------------------------------------------------
case('frombuffer_int32', lambda: torch.frombuffer(bytearray(b'\x01\x00\x00\x00\x02\x00\x00\x00'), dtype=torch.int32))
case('frombuffer_offset_count', lambda: torch.frombuffer(bytearray(range(8)), dtype=torch.int16, offset=2, count=2))
case('frombuffer_bad_len', lambda: torch.frombuffer(bytearray(10), dtype=torch.float32))
case('frombuffer_bad_offset', lambda: torch.frombuffer(bytearray(10), dtype=torch.float32, offset=12))
case('frombuffer_bad_count', lambda: torch.frombuffer(bytearray(10), dtype=torch.float32, count=3))
case('frombuffer_zero_count', lambda: torch.frombuffer(bytearray(10), dtype=torch.float32, count=0))
# ---- grad_fn names (numbering as PyTorch's derivatives.yaml) ---------------------------------------------------
gx = torch.tensor([1.5, 2.5], requires_grad=True)
gt = torch.tensor([2.0, 3.0])
case('gf_pow_scalar', lambda: gx.pow(2))
case('gf_pow_tensor', lambda: gx.pow(gt))
case('gf_pow_scalar_base', lambda: torch.pow(2, gx))
case('gf_div_mode', lambda: gx.div(gt, rounding_mode='floor'))
case('gf_remainder_tensor', lambda: gx.remainder(gt))
case('gf_remainder_scalar', lambda: gx.remainder(2))
case('gf_fmod_tensor', lambda: gx.fmod(gt))
case('gf_fmod_scalar', lambda: gx.fmod(2))
case('gf_clamp_scalar', lambda: gx.clamp(0, 2))
case('gf_clamp_tensor', lambda: gx.clamp(gt, gt))
case('gf_index_put', lambda: gx.clone().index_put((torch.tensor([0]),), torch.tensor(1.0)))
case('mse_loss_bad_reduction', lambda: F.mse_loss(inp, tgt, reduction='avg'))

out = {
    'generated_by': 'tools/golden/gen_api_forms.py',
    'torch_version': torch.__version__,
    'cases': cases,
}
with open(OUT, 'w') as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write('\n')
print(f'wrote {OUT}: {len(cases)} cases')
