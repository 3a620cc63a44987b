// Save and Load the Model — PyTorch's beginner_source/basics/saveloadrun_tutorial.py, ported line for line with the
// tutorials' FashionMNIST network (seeded) in place of torchvision's pretrained VGG16 and the file in the system's
// temporary folder, as its twin tools/golden/tutorials/saveloadrun.py. Saving the whole model (`torch.save(model,
// ...)`, which pickles the class and needs `torch.load(..., weights_only=False)` since PyTorch 2.6) and the ONNX
// export are left out: aten-ts loads checkpoints as weights_only=True does and has no ONNX exporter. The model's
// output on one input is printed to show that the weights came back. Run: npx tsx examples/tutorials/saveloadrun.ts
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { torch, type Tensor } from 'aten-ts';
const { nn } = torch;

torch.manual_seed(0);

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
    );
  }

  override forward(x: Tensor): Tensor {
    x = this.flatten.call(x);
    const logits = this.linear_relu_stack.call(x) as Tensor;
    return logits;
  }
}

const X = torch.rand(1, 28, 28);
const path = join(tmpdir(), 'model_weights.pth');

let model = new NeuralNetwork(); // models.vgg16(pretrained=True)
torch.save(model.state_dict(), path);
console.log(model.call(X));

model = new NeuralNetwork(); // we do not specify pretrained=True, i.e. do not load default weights
console.log(model.call(X));
console.log(model.load_state_dict(torch.load(path, { weights_only: true }) as Record<string, Tensor>));
console.log(model.eval());
console.log(model.call(X));
