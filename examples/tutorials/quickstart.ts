// Quickstart — PyTorch's beginner_source/basics/quickstart_tutorial.py, ported line for line on the CPU.
// Shrunk like its twin tools/golden/tutorials/quickstart.py: FashionMNIST is the subset the repository ships
// (data/fashion-mnist-subset/), cut to its first 2000 training and 1000 test images; 2 epochs printing every 10
// batches (instead of 5 over 60000 images printing every 100); a seed added; the model file goes to the
// system's temporary folder. Run: npx tsx examples/tutorials/quickstart.ts
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { torch, type Tensor } from 'aten-ts';
const { nn } = torch;
const { DataLoader, FashionMNIST, Subset } = torch.utils.data;

torch.manual_seed(0);

// torchvision's datasets.FashionMNIST(root, train, transform=ToTensor()) over the IDX files the repository ships.
const file = (name: string): Uint8Array => readFileSync(new URL(`../../data/fashion-mnist-subset/${name}.gz`, import.meta.url));
const range = (n: number): number[] => [...Array(n).keys()];

// Download training data from open datasets.
const training_data = new Subset(
  new FashionMNIST({ images: file('train-images-idx3-ubyte'), labels: file('train-labels-idx1-ubyte') }),
  range(2000),
);

// Download test data from open datasets.
const test_data = new Subset(
  new FashionMNIST({ images: file('t10k-images-idx3-ubyte'), labels: file('t10k-labels-idx1-ubyte') }),
  range(1000),
);

const batch_size = 64;

// Create data loaders.
const train_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(training_data, { batch_size });
const test_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(test_data, { batch_size });

for (const [X, y] of test_dataloader) {
  console.log(`Shape of X [N, C, H, W]: ${X.shape}`);
  console.log(`Shape of y: ${y.shape} ${y.dtype}`);
  break;
}

const device = 'cpu';
console.log(`Using ${device} device`);

// Define model
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

let model = new NeuralNetwork().to(device);
console.log(model);

const loss_fn = new nn.CrossEntropyLoss();
const optimizer = new torch.optim.SGD(model.parameters(), { lr: 1e-3 });

type Loader = typeof train_dataloader;

function train(dataloader: Loader, model: NeuralNetwork, loss_fn: torch.nn.CrossEntropyLoss, optimizer: torch.optim.SGD): void {
  const size = (dataloader.dataset as typeof training_data).len();
  model.train();
  let batch = 0;
  for (let [X, y] of dataloader) {
    [X, y] = [X.to(device), y.to(device)];

    // Compute prediction error
    const pred = model.call(X);
    const loss = loss_fn.call(pred, y);

    // Backpropagation
    loss.backward();
    optimizer.step();
    optimizer.zero_grad();

    if (batch % 10 === 0) {
      const [lossValue, current] = [loss.item() as number, (batch + 1) * X.size(0)];
      console.log(`loss: ${lossValue.toFixed(6).padStart(7)}  [${String(current).padStart(5)}/${String(size).padStart(5)}]`);
    }
    batch++;
  }
}

function test(dataloader: Loader, model: NeuralNetwork, loss_fn: torch.nn.CrossEntropyLoss): void {
  const size = (dataloader.dataset as typeof test_data).len();
  const num_batches = dataloader.len();
  model.eval();
  let [test_loss, correct] = [0, 0];
  torch.no_grad(() => {
    for (let [X, y] of dataloader) {
      [X, y] = [X.to(device), y.to(device)];
      const pred = model.call(X);
      test_loss += loss_fn.call(pred, y).item() as number;
      correct += pred.argmax(1).eq(y).type(torch.float).sum().item() as number;
    }
  });
  test_loss /= num_batches;
  correct /= size;
  console.log(`Test Error: \n Accuracy: ${(100 * correct).toFixed(1)}%, Avg loss: ${test_loss.toFixed(6).padStart(8)} \n`);
}

const epochs = 2;
for (let t = 0; t < epochs; t++) {
  console.log(`Epoch ${t + 1}\n-------------------------------`);
  train(train_dataloader, model, loss_fn, optimizer);
  test(test_dataloader, model, loss_fn);
}
console.log('Done!');

const path = join(tmpdir(), 'model.pth');
torch.save(model.state_dict(), path);
console.log('Saved PyTorch Model State to model.pth');

model = new NeuralNetwork().to(device);
model.load_state_dict(torch.load(path, { weights_only: true }) as Record<string, Tensor>);

const classes = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

model.eval();
// eslint-disable-next-line prefer-const -- Python's tuple assignment; only x is reassigned
let [x, y] = [test_data.getItem(0)[0], test_data.getItem(0)[1]];
torch.no_grad(() => {
  x = x.to(device);
  const pred = model.call(x);
  const [predicted, actual] = [classes[pred.index([0]).argmax(0).item() as number], classes[y]];
  console.log(`Predicted: "${predicted}", Actual: "${actual}"`);
});
