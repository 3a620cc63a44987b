// The autograd semantics scenarios of custom torch.autograd.Function and out= with autograd: the replays of
// tools/golden/autograd_semantics/custom_function.py's scenarios (test/golden/autograd_semantics.json), one function
// per scenario name, run by test/autograd/semantics_custom_function.test.ts.
import { torch } from '../../../src/api/index.js';
import type { FunctionCtx } from '../../../src/autograd/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { type Json, T, name, nf, err, leaf } from './harness.js';

// Custom autograd.Functions of the custom_function_* scenarios, as gen_autograd_semantics.py defines them.
class ScaledExp extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx & { k: number }, x: Tensor, k: number): Tensor {
    const r = x.exp().mul(k);
    ctx.saveForBackward(r);
    ctx.k = k;
    return r;
  }
  static override backward(ctx: FunctionCtx, g: Tensor | null): (Tensor | null)[] {
    const [r] = ctx.savedTensors;
    return [g!.mul(r!), null];
  }
}
class TwoGrads extends torch.autograd.Function {
  static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
    return x.mul(2);
  }
  static override backward(_ctx: FunctionCtx, g: Tensor | null): (Tensor | null)[] {
    return [g, g];
  }
}
class WrongShape extends torch.autograd.Function {
  static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
    return x.mul(2);
  }
  static override backward(_ctx: FunctionCtx, g: Tensor | null): Tensor {
    return g!.slice(0, 0, 1);
  }
}
class NoBackward extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx & { seen: boolean[] }, x: Tensor): Tensor {
    ctx.seen = [...ctx.needsInputGrad];
    return x.clone();
  }
}
class SavesInput extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return x.mul(1);
  }
  static override backward(ctx: FunctionCtx, g: Tensor | null): Tensor {
    return g!.mul(ctx.savedTensors[0]!);
  }
}

export const CUSTOM_FUNCTION: Record<string, () => Json> = {
  custom_function_basic: () => {
    const x = leaf([1, 2]);
    const y = ScaledExp.apply(x, 2);
    const out: Record<string, Json> = { grad_fn: name(y.gradFn), next: nf(y.gradFn), y: T(y), requires_grad: y.requiresGrad };
    y.sum().backward();
    out.grad = T(x.grad);
    out.no_grad = torch.noGrad(() => ScaledExp.apply(x, 1).requiresGrad);
    out.plain_input = ScaledExp.apply(torch.tensor([1], { dtype: 'float32' }), 1).requiresGrad;
    return out;
  },
  custom_function_errors: () => {
    const x = leaf([1, 2]);
    const n = NoBackward.apply(x);
    return {
      count: err(() => TwoGrads.apply(x).sum().backward()),
      shape: err(() => WrongShape.apply(x).sum().backward()),
      no_backward: err(() => NoBackward.apply(x).sum().backward()),
      grad_fn: name(n.gradFn),
    };
  },
  custom_function_saved_version: () => {
    const a = leaf([1, 2]);
    const b = a.mul(1);
    const c = SavesInput.apply(b);
    b.add_(1);
    return { error: err(() => c.sum().backward()) };
  },

  // ---- out= -----------------------------------------------------------------------------------------------------
  out_with_requires_grad: () => {
    const x = leaf([1, 2]);
    const o = torch.empty(2);
    const out: Record<string, Json> = {
      add: err(() => torch.add(x, 1, { out: o })),
      mul: err(() => torch.mul(x, x, { out: o })),
      exp: err(() => torch.exp(x, { out: o })),
      sum: err(() => torch.sum(x, 0, { out: torch.empty([]) })),
    };
    torch.noGrad(() => torch.add(x, 1, { out: o }));
    out.no_grad = [T(o), o.requiresGrad];
    out.plain = err(() => T(torch.add(torch.ones(2), 1, { out: o })));
    out.out_requires_grad = err(() => torch.add(torch.ones(2), 1, { out: leaf([0, 0]) }));
    return out;
  },
};
