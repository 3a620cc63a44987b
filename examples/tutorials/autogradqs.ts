// Automatic Differentiation with torch.autograd — PyTorch's beginner_source/basics/autogradqs_tutorial.py, ported
// line for line, with a seed added. A grad_fn prints in Python as `<AddBackward0 object at 0x...>`, a memory
// address: both this port and its twin tools/golden/tutorials/autogradqs.py print its name() instead.
// Run: npx tsx examples/tutorials/autogradqs.ts
import { torch } from 'aten-ts';

torch.manual_seed(0);

const x = torch.ones(5); // input tensor
const y = torch.zeros(3); // expected output
const w = torch.randn(5, 3, { requires_grad: true });
const b = torch.randn(3, { requires_grad: true });
let z = torch.matmul(x, w).add(b);
const loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y);

console.log(`Gradient function for z = ${z.grad_fn!.name()}`);
console.log(`Gradient function for loss = ${loss.grad_fn!.name()}`);

loss.backward();
console.log(w.grad);
console.log(b.grad);

z = torch.matmul(x, w).add(b);
console.log(z.requires_grad);

torch.no_grad(() => {
  z = torch.matmul(x, w).add(b);
});
console.log(z.requires_grad);

z = torch.matmul(x, w).add(b);
const z_det = z.detach();
console.log(z_det.requires_grad);

const inp = torch.eye(4, 5, { requires_grad: true });
const out = inp.add(1).pow(2).t();
out.backward(torch.ones_like(out), { retain_graph: true });
console.log(`First call\n${inp.grad}`);
out.backward(torch.ones_like(out), { retain_graph: true });
console.log(`\nSecond call\n${inp.grad}`);
inp.grad!.zero_();
out.backward(torch.ones_like(out), { retain_graph: true });
console.log(`\nCall after zeroing gradients\n${inp.grad}`);
