// PyTorch: Control Flow + Weight Sharing — PyTorch's beginner_source/examples_nn/dynamic_net.py, ported line for
// line (a seed added, 200 steps printing every 20 instead of 30000 every 2000, and Python's
// random.randint(4, 6) replaced by a sequence both languages compute: 4 + (7 * t) % 3).
// Run: npx tsx examples/tutorials/dynamic_net.ts
import { torch, type Tensor } from 'aten-ts';

class DynamicNet extends torch.nn.Module {
  declare a: torch.nn.Parameter;
  declare b: torch.nn.Parameter;
  declare c: torch.nn.Parameter;
  declare d: torch.nn.Parameter;
  declare e: torch.nn.Parameter;
  calls: number;

  /** In the constructor we instantiate five parameters and assign them as members. */
  constructor() {
    super();
    this.a = new torch.nn.Parameter(torch.randn([]));
    this.b = new torch.nn.Parameter(torch.randn([]));
    this.c = new torch.nn.Parameter(torch.randn([]));
    this.d = new torch.nn.Parameter(torch.randn([]));
    this.e = new torch.nn.Parameter(torch.randn([]));
    this.calls = 0;
  }

  /**
   * For the forward pass of the model, we choose either 4, 5
   * and reuse the e parameter to compute the contribution of these orders.
   */
  override forward(x: Tensor): Tensor {
    let y = this.a
      .add(this.b.mul(x))
      .add(this.c.mul(x.pow(2)))
      .add(this.d.mul(x.pow(3)));
    for (let exp = 4; exp < 4 + ((7 * this.calls) % 3); exp++) y = y.add(this.e.mul(x.pow(exp)));
    this.calls += 1;
    return y;
  }

  /** Just like any class in Python, you can also define custom method on PyTorch modules */
  string(): string {
    return `y = ${this.a.item()} + ${this.b.item()} x + ${this.c.item()} x^2 + ${this.d.item()} x^3 + ${this.e.item()} x^4 ? + ${this.e.item()} x^5 ?`;
  }
}

torch.manual_seed(0);

// Create Tensors to hold input and outputs.
const x = torch.linspace(-Math.PI, Math.PI, 2000);
const y = torch.sin(x);

// Construct our model by instantiating the class defined above
const model = new DynamicNet();

// Construct our loss function and an Optimizer.
const criterion = new torch.nn.MSELoss({ reduction: 'sum' });
const optimizer = new torch.optim.SGD(model.parameters(), { lr: 1e-8, momentum: 0.9 });
for (let t = 0; t < 200; t++) {
  // Forward pass: Compute predicted y by passing x to the model
  const y_pred = model.call(x);

  // Compute and print loss
  const loss = criterion.call(y_pred, y);
  if (t % 20 === 19) console.log(t, loss.item());

  // Zero gradients, perform a backward pass, and update the weights.
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
}

console.log(`Result: ${model.string()}`);
