// PyTorch: Custom nn Modules — PyTorch's beginner_source/examples_nn/polynomial_module.py, ported line for line
// (a seed added, 500 steps instead of 2000). Run: npx tsx examples/tutorials/polynomial_module.ts
import { torch, type Tensor } from 'aten-ts';

torch.manual_seed(0);

class Polynomial3 extends torch.nn.Module {
  declare a: torch.nn.Parameter;
  declare b: torch.nn.Parameter;
  declare c: torch.nn.Parameter;
  declare d: torch.nn.Parameter;

  /** In the constructor we instantiate four parameters and assign them as member parameters. */
  constructor() {
    super();
    this.a = new torch.nn.Parameter(torch.randn([]));
    this.b = new torch.nn.Parameter(torch.randn([]));
    this.c = new torch.nn.Parameter(torch.randn([]));
    this.d = new torch.nn.Parameter(torch.randn([]));
  }

  /**
   * In the forward function we accept a Tensor of input data and we must return
   * a Tensor of output data.
   */
  override forward(x: Tensor): Tensor {
    return this.a
      .add(this.b.mul(x))
      .add(this.c.mul(x.pow(2)))
      .add(this.d.mul(x.pow(3)));
  }

  /** Just like any class in Python, you can also define custom method on PyTorch modules */
  string(): string {
    return `y = ${this.a.item()} + ${this.b.item()} x + ${this.c.item()} x^2 + ${this.d.item()} x^3`;
  }
}

// Create Tensors to hold input and outputs.
const x = torch.linspace(-Math.PI, Math.PI, 2000);
const y = torch.sin(x);

// Construct our model by instantiating the class defined above
const model = new Polynomial3();

// Construct our loss function and an Optimizer.
const criterion = new torch.nn.MSELoss({ reduction: 'sum' });
const optimizer = new torch.optim.SGD(model.parameters(), { lr: 1e-6 });
for (let t = 0; t < 500; t++) {
  // Forward pass: Compute predicted y by passing x to the model
  const y_pred = model.call(x);

  // Compute and print loss
  const loss = criterion.call(y_pred, y);
  if (t % 100 === 99) console.log(t, loss.item());

  // Zero gradients, perform a backward pass, and update the weights.
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
}

console.log(`Result: ${model.string()}`);
