// PyTorch: Tensors — PyTorch's beginner_source/examples_tensor/polynomial_tensor.py, ported line for line
// (a seed added, 500 steps instead of 2000). Run: npx tsx examples/tutorials/polynomial_tensor.ts
import { torch } from 'aten-ts';

torch.manual_seed(0);

const dtype = torch.float;
const device = torch.device('cpu');

// Create random input and output data
const x = torch.linspace(-Math.PI, Math.PI, 2000, { device, dtype });
const y = torch.sin(x);

// Randomly initialize weights
const a = torch.randn([], { device, dtype });
const b = torch.randn([], { device, dtype });
const c = torch.randn([], { device, dtype });
const d = torch.randn([], { device, dtype });

const learning_rate = 1e-6;
for (let t = 0; t < 500; t++) {
  // Forward pass: compute predicted y
  const y_pred = a
    .add(b.mul(x))
    .add(c.mul(x.pow(2)))
    .add(d.mul(x.pow(3)));

  // Compute and print loss
  const loss = y_pred.sub(y).pow(2).sum().item();
  if (t % 100 === 99) console.log(t, loss);

  // Backprop to compute gradients of a, b, c, d with respect to loss
  const grad_y_pred = y_pred.sub(y).mul(2.0);
  const grad_a = grad_y_pred.sum();
  const grad_b = grad_y_pred.mul(x).sum();
  const grad_c = grad_y_pred.mul(x.pow(2)).sum();
  const grad_d = grad_y_pred.mul(x.pow(3)).sum();

  // Update weights using gradient descent
  a.sub_(grad_a.mul(learning_rate));
  b.sub_(grad_b.mul(learning_rate));
  c.sub_(grad_c.mul(learning_rate));
  d.sub_(grad_d.mul(learning_rate));
}

console.log(`Result: y = ${a.item()} + ${b.item()} x + ${c.item()} x^2 + ${d.item()} x^3`);
