// A custom operator as PyTorch's custom-ops tutorial writes one: torch.library.custom_op with a fake (Meta)
// kernel and a backward formula, checked with opcheck, called directly and through torch.ops.
// Run: npm run build, then npx tsx examples/custom-op.ts (test/examples.test.ts and npm run test:package run it
// too; the latter checks its output against custom-op.expected.txt).
import { torch, type Tensor } from 'aten-ts';

/** `mylib::scaled_sin(x, k) = sin(x) * k`, its gradient and opcheck's verdict. */
export function customOp(): { y: number[]; grad: number[]; viaOps: number[]; metaShape: number[]; opcheck: Record<string, unknown> } {
  const scaledSin = torch.library.custom_op('mylib::scaled_sin', (x: Tensor, k: number) => torch.sin(x).mul(k), {
    mutates_args: [],
    schema: '(Tensor x, float k=1.0) -> Tensor', // required: JavaScript functions carry no types to infer it from
  });
  // The fake kernel: outputs with the right shape, dtype and strides, from Meta inputs.
  scaledSin.register_fake((x: Tensor) => torch.empty_like(x));
  // The backward formula: setup_context saves what backward needs; backward returns one gradient per input.
  scaledSin.register_autograd<{ k: number }>((ctx, grad: Tensor) => [grad.mul(torch.cos(ctx.saved_tensors[0]!)).mul(ctx.k), null], {
    setup_context: (ctx, inputs) => {
      ctx.save_for_backward(inputs[0] as Tensor);
      ctx.k = inputs[1] as number;
    },
  });

  const x = torch.tensor([0, 0.5, 1], { dtype: 'float32', requires_grad: true });
  const y = scaledSin(x, 2) as Tensor;
  y.sum().backward();
  const viaOps = torch.ops.mylib!.scaled_sin!(x.detach(), { k: 2 }) as Tensor; // keyword arguments as options
  const meta = scaledSin(torch.empty(8, 3, { device: 'meta' })) as Tensor; // shapes only, no memory
  const opcheck = torch.library.opcheck(scaledSin, [torch.tensor([0.25, 2], { dtype: 'float32', requires_grad: true }), 3]);
  return {
    y: y.tolist() as number[],
    grad: x.grad!.tolist() as number[],
    viaOps: viaOps.tolist() as number[],
    metaShape: meta.size(),
    opcheck,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = customOp();
  const fmt = (xs: number[]): string => `[${xs.map((v) => v.toFixed(4)).join(', ')}]`;
  console.log(`scaled_sin(x, 2) = ${fmt(r.y)}`);
  console.log(`d/dx             = ${fmt(r.grad)}`);
  console.log(`torch.ops.mylib.scaled_sin(x, { k: 2 }) = ${fmt(r.viaOps)}`);
  console.log(`on meta: shape [${r.metaShape.join(', ')}]`);
  for (const [test, verdict] of Object.entries(r.opcheck)) console.log(`opcheck ${test}: ${String(verdict)}`);
}
