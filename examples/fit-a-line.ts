// Fits y = 3x - 2 with a one-neuron linear model, plain gradient descent on autograd's gradients: the pieces
// a PyTorch user writes by hand (requiresGrad_, a loss, backward, an update under noGrad, zeroing .grad).
// Run: npx tsx examples/fit-a-line.ts     (test/examples.test.ts runs it too)
import { torch } from 'aten-ts';

/** Trains for `steps` steps and returns the learned weight, bias and the loss before and after. */
export function fitALine(steps = 300, lr = 0.1): { w: number; b: number; first: number; last: number } {
  torch.manualSeed(0);
  const x = torch.rand([64, 1], { dtype: torch.float32 }).mul(2).sub(1);
  const y = x.mul(3).sub(2);
  const w = torch.zeros([1, 1]).requiresGrad_();
  const b = torch.zeros(1).requiresGrad_();
  let first = NaN;
  let last = NaN;
  for (let step = 0; step < steps; step++) {
    const loss = torch.mse_loss(torch.linear(x, w, b), y, 1);
    if (step === 0) first = loss.item() as number;
    last = loss.item() as number;
    loss.backward();
    torch.noGrad(() => {
      for (const p of [w, b]) {
        p.sub_(p.grad!.mul(lr));
        p.grad = null;
      }
    });
  }
  return { w: w.item() as number, b: b.item() as number, first, last };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = fitALine();
  console.log(`w = ${r.w.toFixed(4)}, b = ${r.b.toFixed(4)}, loss ${r.first.toFixed(4)} -> ${r.last.toExponential(2)}`);
}
