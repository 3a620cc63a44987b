// PyTorch: Tensors and autograd — PyTorch's beginner_source/examples_autograd/polynomial_autograd.py, ported
// line for line on the CPU (a seed added, 500 steps instead of 2000). Run: npx tsx examples/tutorials/polynomial_autograd.ts
import { torch } from 'aten-ts';

torch.manual_seed(0);

const dtype = torch.float;
const device = 'cpu';
console.log(`Using ${device} device`);

// Create Tensors to hold input and outputs.
const x = torch.linspace(-Math.PI, Math.PI, 2000, { dtype });
const y = torch.sin(x);

// Create random Tensors for weights. For a third order polynomial, we need
// 4 weights: y = a + b x + c x^2 + d x^3
const a = torch.randn([], { dtype, requires_grad: true });
const b = torch.randn([], { dtype, requires_grad: true });
const c = torch.randn([], { dtype, requires_grad: true });
const d = torch.randn([], { dtype, requires_grad: true });

const learning_rate = 1e-6;
for (let t = 0; t < 500; t++) {
  // Forward pass: compute predicted y using operations on Tensors.
  const y_pred = a
    .add(b.mul(x))
    .add(c.mul(x.pow(2)))
    .add(d.mul(x.pow(3)));

  // Compute and print loss using operations on Tensors.
  const loss = y_pred.sub(y).pow(2).sum();
  if (t % 100 === 99) console.log(t, loss.item());

  // Use autograd to compute the backward pass.
  loss.backward();

  // Manually update weights using gradient descent.
  torch.no_grad(() => {
    a.sub_(a.grad!.mul(learning_rate));
    b.sub_(b.grad!.mul(learning_rate));
    c.sub_(c.grad!.mul(learning_rate));
    d.sub_(d.grad!.mul(learning_rate));

    // Manually zero the gradients after updating weights
    a.grad = null;
    b.grad = null;
    c.grad = null;
    d.grad = null;
  });
}

console.log(`Result: y = ${a.item()} + ${b.item()} x + ${c.item()} x^2 + ${d.item()} x^3`);
