// PyTorch: Defining New autograd Functions — PyTorch's beginner_source/examples_autograd/polynomial_custom_function.py,
// ported line for line on the CPU (500 steps instead of 2000; the weights start at fixed values, so no seed).
// Run: npx tsx examples/tutorials/polynomial_custom_function.ts
import { torch, type Tensor } from 'aten-ts';
type FunctionCtx = InstanceType<typeof torch.autograd.FunctionCtx>;

/**
 * We can implement our own custom autograd Functions by subclassing
 * torch.autograd.Function and implementing the forward and backward passes
 * which operate on Tensors.
 */
class LegendrePolynomial3 extends torch.autograd.Function {
  /**
   * In the forward pass we receive a Tensor containing the input and return
   * a Tensor containing the output. ctx is a context object that can be used
   * to stash information for backward computation. You can cache arbitrary
   * objects for use in the backward pass using the ctx.save_for_backward method.
   */
  static override forward(ctx: FunctionCtx, input: Tensor): Tensor {
    ctx.save_for_backward(input);
    return input.pow(3).mul(5).sub(input.mul(3)).mul(0.5);
  }

  /**
   * In the backward pass we receive a Tensor containing the gradient of the loss
   * with respect to the output, and we need to compute the gradient of the loss
   * with respect to the input.
   */
  static override backward(ctx: FunctionCtx, grad_output: Tensor | null): Tensor {
    const [input] = ctx.saved_tensors;
    return grad_output!.mul(1.5).mul(input!.pow(2).mul(5).sub(1));
  }
}

const dtype = torch.float;
const device = torch.device('cpu');
// const device = torch.device('cuda:0'); // Uncomment this to run on GPU

// Create Tensors to hold input and outputs.
// Setting requires_grad=False indicates that we do not need to compute gradients
// with respect to these Tensors during the backward pass.
const x = torch.linspace(-Math.PI, Math.PI, 2000, { device, dtype });
const y = torch.sin(x);

// Create random Tensors for weights. For this example, we need
// 4 weights: y = a + b * P3(c + d * x), these weights need to be initialized
// not too far from the correct result to ensure convergence.
// Setting requires_grad=True indicates that we want to compute gradients with
// respect to these Tensors during the backward pass.
const a = torch.full([], 0.0, { device, dtype, requires_grad: true });
const b = torch.full([], -1.0, { device, dtype, requires_grad: true });
const c = torch.full([], 0.0, { device, dtype, requires_grad: true });
const d = torch.full([], 0.3, { device, dtype, requires_grad: true });

const learning_rate = 5e-6;
for (let t = 0; t < 500; t++) {
  // To apply our Function, we use Function.apply method. We alias this as 'P3'.
  const P3 = (input: Tensor): Tensor => LegendrePolynomial3.apply(input);

  // Forward pass: compute predicted y using operations; we compute
  // P3 using our custom autograd operation.
  const y_pred = a.add(b.mul(P3(c.add(d.mul(x)))));

  // Compute and print loss
  const loss = y_pred.sub(y).pow(2).sum();
  if (t % 100 === 99) console.log(t, loss.item());

  // Use autograd to compute the backward pass.
  loss.backward();

  // Update weights using gradient descent
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

console.log(`Result: y = ${a.item()} + ${b.item()} * P3(${c.item()} + ${d.item()} x)`);
