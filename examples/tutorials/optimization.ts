// Optimizing Model Parameters — PyTorch's beginner_source/basics/optimization_tutorial.py, ported line for line on
// the CPU. Shrunk like its twin tools/golden/tutorials/optimization.py (further than the Quickstart): FashionMNIST is the
// subset the repository ships (data/fashion-mnist-subset/), cut to its first 640 training and 320 test images;
// 2 epochs printing every 5 batches (instead of 10 over 60000 images printing every 100); a seed added.
// Run: npx tsx examples/tutorials/optimization.ts
import { readFileSync } from 'node:fs';
import { torch, type Tensor } from 'aten-ts';
const { nn } = torch;
const { DataLoader, FashionMNIST, Subset } = torch.utils.data;

torch.manual_seed(0);

const file = (name: string): Uint8Array => readFileSync(new URL(`../../data/fashion-mnist-subset/${name}.gz`, import.meta.url));
const range = (n: number): number[] => [...Array(n).keys()];

// datasets.FashionMNIST(root="data", train=True, download=True, transform=ToTensor())
const training_data = new Subset(
  new FashionMNIST({ images: file('train-images-idx3-ubyte'), labels: file('train-labels-idx1-ubyte') }),
  range(640),
);

const test_data = new Subset(
  new FashionMNIST({ images: file('t10k-images-idx3-ubyte'), labels: file('t10k-labels-idx1-ubyte') }),
  range(320),
);

const train_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(training_data, { batch_size: 64 });
const test_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(test_data, { batch_size: 64 });

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

const model = new NeuralNetwork();

const learning_rate = 1e-3;
const batch_size = 64;
let epochs = 5;

// Initialize the loss function
let loss_fn = new nn.CrossEntropyLoss();

let optimizer = new torch.optim.SGD(model.parameters(), { lr: learning_rate });

type Loader = typeof train_dataloader;

function train_loop(dataloader: Loader, model: NeuralNetwork, loss_fn: torch.nn.CrossEntropyLoss, optimizer: torch.optim.SGD): void {
  const size = (dataloader.dataset as typeof training_data).len();
  // Set the model to training mode - important for batch normalization and dropout layers
  // Unnecessary in this situation but added for best practices
  model.train();
  let batch = 0;
  for (const [X, y] of dataloader) {
    // Compute prediction and loss
    const pred = model.call(X);
    const loss = loss_fn.call(pred, y);

    // Backpropagation
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();

    if (batch % 5 === 0) {
      const [lossValue, current] = [loss.item() as number, batch * batch_size + X.size(0)];
      console.log(`loss: ${lossValue.toFixed(6).padStart(7)}  [${String(current).padStart(5)}/${String(size).padStart(5)}]`);
    }
    batch++;
  }
}

function test_loop(dataloader: Loader, model: NeuralNetwork, loss_fn: torch.nn.CrossEntropyLoss): void {
  // Set the model to evaluation mode - important for batch normalization and dropout layers
  // Unnecessary in this situation but added for best practices
  model.eval();
  const size = (dataloader.dataset as typeof test_data).len();
  const num_batches = dataloader.len();
  let [test_loss, correct] = [0, 0];

  // Evaluating the model with torch.no_grad() ensures that no gradients are computed during test mode
  // also serves to reduce unnecessary gradient computations and memory usage for tensors with requires_grad=True
  torch.no_grad(() => {
    for (const [X, y] of dataloader) {
      const pred = model.call(X);
      test_loss += loss_fn.call(pred, y).item() as number;
      correct += pred.argmax(1).eq(y).type(torch.float).sum().item() as number;
    }
  });

  test_loss /= num_batches;
  correct /= size;
  console.log(`Test Error: \n Accuracy: ${(100 * correct).toFixed(1)}%, Avg loss: ${test_loss.toFixed(6).padStart(8)} \n`);
}

loss_fn = new nn.CrossEntropyLoss();
optimizer = new torch.optim.SGD(model.parameters(), { lr: learning_rate });

epochs = 2;
for (let t = 0; t < epochs; t++) {
  console.log(`Epoch ${t + 1}\n-------------------------------`);
  train_loop(train_dataloader, model, loss_fn, optimizer);
  test_loop(test_dataloader, model, loss_fn);
}
console.log('Done!');
