// Build the Neural Network — PyTorch's beginner_source/basics/buildmodel_tutorial.py, ported line for line on the
// CPU, with a seed added (the random inputs, weights and predictions print PyTorch's values) and the softmax of
// the nn.Sequential section printed, as in its twin tools/golden/tutorials/buildmodel.py.
// Run: npx tsx examples/tutorials/buildmodel.ts
import { torch, type Tensor } from 'aten-ts';
const { nn } = torch;
const { Slice } = torch.indexing;

torch.manual_seed(0);

const device = torch.cuda.is_available() ? 'cuda' : 'cpu';
console.log(`Using ${device} device`);

class NeuralNetwork extends nn.Module {
  declare flatten: torch.nn.Flatten;
  declare linear_relu_stack: torch.nn.Sequential;

  constructor() {
    super();
    this.flatten = new nn.Flatten();
    this.linear_relu_stack = new nn.Sequential(
      new nn.Linear(28 * 28, 512),
      new nn.ReLU(),
      new nn.Linear(512, 512),
      new nn.ReLU(),
      new nn.Linear(512, 10),
      new nn.ReLU(),
    );
  }

  override forward(x: Tensor): Tensor {
    x = this.flatten.call(x);
    const logits = this.linear_relu_stack.call(x) as Tensor;
    return logits;
  }
}

const model = new NeuralNetwork().to(device);
console.log(model);

const X = torch.rand(1, 28, 28, { device });
let logits = model.call(X);
let pred_probab = new nn.Softmax({ dim: 1 }).call(logits);
const y_pred = pred_probab.argmax(1);
console.log(`Predicted class: ${y_pred}`);

let input_image = torch.rand(3, 28, 28);
console.log(input_image.size());

const flatten = new nn.Flatten();
const flat_image = flatten.call(input_image);
console.log(flat_image.size());

const layer1 = new nn.Linear({ in_features: 28 * 28, out_features: 20 });
let hidden1 = layer1.call(flat_image);
console.log(hidden1.size());

console.log(`Before ReLU: ${hidden1}\n\n`);
hidden1 = new nn.ReLU().call(hidden1);
console.log(`After ReLU: ${hidden1}`);

const seq_modules = new nn.Sequential(flatten, layer1, new nn.ReLU(), new nn.Linear(20, 10));
input_image = torch.rand(3, 28, 28);
logits = seq_modules.call(input_image) as Tensor;

const softmax = new nn.Softmax({ dim: 1 });
pred_probab = softmax.call(logits);
console.log(pred_probab);

console.log('Model structure: ', model, '\n\n');

for (const [name, param] of model.named_parameters()) {
  console.log(`Layer: ${name} | Size: ${param.size()} | Values : ${param.index([Slice(null, 2)])} \n`);
}
