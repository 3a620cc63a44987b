// PyTorch: nn — PyTorch's beginner_source/examples_nn/polynomial_nn.py, ported line for line (a seed added, 500
// steps instead of 2000). Run: npx tsx examples/tutorials/polynomial_nn.ts
import { torch } from 'aten-ts';
const { Slice } = torch.indexing;

torch.manual_seed(0);

// Create Tensors to hold input and outputs.
const x = torch.linspace(-Math.PI, Math.PI, 2000);
const y = torch.sin(x);

// For this example, the output y is a linear function of (x, x^2, x^3), so
// we can consider it as a linear layer neural network. Let's prepare the
// tensor (x, x^2, x^3).
const p = torch.tensor([1, 2, 3]);
const xx = x.unsqueeze(-1).pow(p);

// Use the nn package to define our model as a sequence of layers.
const model = new torch.nn.Sequential(new torch.nn.Linear(3, 1), new torch.nn.Flatten(0, 1));

// The nn package also contains definitions of popular loss functions; in this
// case we will use Mean Squared Error (MSE) as our loss function.
const loss_fn = new torch.nn.MSELoss({ reduction: 'sum' });

const learning_rate = 1e-6;
for (let t = 0; t < 500; t++) {
  // Forward pass: compute predicted y by passing x to the model.
  const y_pred = model.call(xx);

  // Compute and print loss.
  const loss = loss_fn.call(y_pred, y);
  if (t % 100 === 99) console.log(t, loss.item());

  // Zero the gradients before running the backward pass.
  model.zero_grad();

  // Backward pass: compute gradient of the loss with respect to all the learnable
  // parameters of the model.
  loss.backward();

  // Update the weights using gradient descent.
  torch.no_grad(() => {
    for (const param of model.parameters()) param.sub_(param.grad!.mul(learning_rate));
  });
}

// You can access the first layer of `model` like accessing the first item of a list
const linear_layer = model.at(0) as torch.nn.Linear;

// For linear layer, its parameters are stored as `weight` and `bias`.
console.log(
  `Result: y = ${linear_layer.bias!.item()} + ${linear_layer.weight.index([Slice(), 0]).item()} x + ${linear_layer.weight.index([Slice(), 1]).item()} x^2 + ${linear_layer.weight.index([Slice(), 2]).item()} x^3`,
);
