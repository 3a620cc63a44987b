// The autograd semantics scenarios of broadcast gradients and the dtypes of gradients: the replays of
// tools/golden/autograd_semantics/broadcast.py's scenarios (test/golden/autograd_semantics.json), one function per
// scenario name, run by test/autograd/semantics_broadcast.test.ts.
import { torch } from '../../../src/api/index.js';
import { dtypeName } from '../../../src/c10/index.js';
import { type Json, T, leaf } from './harness.js';

export const BROADCAST: Record<string, () => Json> = {
  broadcast_add: () => {
    const a = leaf([[1], [2], [3]]);
    const b = leaf([1, 2, 3, 4]);
    const y = a.add(b);
    y.sum().backward();
    return { y_sizes: [...y.sizes], a: T(a.grad), b: T(b.grad) };
  },
  broadcast_mul_scalar_tensor: () => {
    const a = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const s = leaf(2);
    a.mul(s).sum().backward();
    return { a: T(a.grad), s: T(s.grad) };
  },
  broadcast_leading_dims: () => {
    const a = leaf([1, 2]);
    const b = leaf([[[1, 1]], [[2, 2]]]);
    a.mul(b).backward(torch.ones(2, 1, 2));
    return { a: T(a.grad), b: T(b.grad) };
  },
  broadcast_alpha: () => {
    const a = leaf([1, 2]);
    const b = leaf([[1], [2]]);
    torch.add(a, b, { alpha: 3 }).sum().backward();
    return { a: T(a.grad), b: T(b.grad) };
  },
  grad_dtypes: () => {
    const x = leaf([1, 2]);
    const d = torch.tensor([3, 4], { dtype: 'float64' });
    const y = x.mul(d);
    y.sum().backward();
    const out: Record<string, Json> = { y_dtype: `torch.${dtypeName(y.scalarType)}`, x_grad: T(x.grad) };
    const w = leaf([1, 2], 'float64');
    x.add(w).sum().backward();
    out.x_grad2 = T(x.grad);
    out.w_grad = T(w.grad);
    const h = leaf([1, 2]);
    h.mul(2.5).sum().backward();
    out.h = T(h.grad);
    return out;
  },
};
