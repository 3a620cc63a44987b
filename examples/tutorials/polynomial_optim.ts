// PyTorch: optim — PyTorch's beginner_source/examples_nn/polynomial_optim.py, ported line for line (a seed
// added, 500 steps instead of 2000). Run: npx tsx examples/tutorials/polynomial_optim.ts
import { torch } from 'aten-ts';
const { Slice } = torch.indexing;

torch.manual_seed(0);

// Create Tensors to hold input and outputs.
const x = torch.linspace(-Math.PI, Math.PI, 2000);
const y = torch.sin(x);

// Prepare the input tensor (x, x^2, x^3).
const p = torch.tensor([1, 2, 3]);
const xx = x.unsqueeze(-1).pow(p);

// Use the nn package to define our model and loss function.
const model = new torch.nn.Sequential(new torch.nn.Linear(3, 1), new torch.nn.Flatten(0, 1));
const loss_fn = new torch.nn.MSELoss({ reduction: 'sum' });

// Use the optim package to define an Optimizer that will update the weights of
// the model for us. Here we will use RMSprop.
const learning_rate = 1e-3;
const optimizer = new torch.optim.RMSprop(model.parameters(), { lr: learning_rate });
for (let t = 0; t < 500; t++) {
  // Forward pass: compute predicted y by passing x to the model.
  const y_pred = model.call(xx);

  // Compute and print loss.
  const loss = loss_fn.call(y_pred, y);
  if (t % 100 === 99) console.log(t, loss.item());

  // Before the backward pass, use the optimizer object to zero all of the
  // gradients for the variables it will update (which are the learnable
  // weights of the model).
  optimizer.zero_grad();

  // Backward pass: compute gradient of the loss with respect to model
  // parameters
  loss.backward();

  // Calling the step function on an Optimizer makes an update to its
  // parameters
  optimizer.step();
}

const linear_layer = model.at(0) as torch.nn.Linear;
console.log(
  `Result: y = ${linear_layer.bias!.item()} + ${linear_layer.weight.index([Slice(), 0]).item()} x + ${linear_layer.weight.index([Slice(), 1]).item()} x^2 + ${linear_layer.weight.index([Slice(), 2]).item()} x^3`,
);
