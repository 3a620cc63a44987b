// What is torch.nn really? — PyTorch's beginner_source/nn_tutorial.py, ported line for line, start to finish, on the
// CPU. MNIST (a download of mnist.pkl.gz) is replaced by the FashionMNIST subset the repository ships
// (data/fashion-mnist-subset/): its first 320 training images as x_train and first 128 test images as x_valid,
// flattened to 784 floats in [0, 1] as mnist.pkl.gz stores them; 1 epoch instead of 2 (with lr=0.5 on these images
// the from-scratch loop turns chaotic in the second epoch, where float32 rounding differences grow); a seed added;
// matplotlib's lines left out; as its twin tools/golden/tutorials/nn_tutorial.py. Python's `model` is first a function, then a module: the function
// phase is a block of its own (a function is called `model(xb)`, a module `model.call(xb)`).
// Run: npx tsx examples/tutorials/nn_tutorial.ts
import { readFileSync } from 'node:fs';
import { torch, type Tensor } from 'aten-ts';
const { Slice } = torch.indexing;
const { readIdx } = torch.utils.data;

torch.manual_seed(0);

const idx = (name: string): Tensor => {
  const { dims, data } = readIdx(readFileSync(new URL(`../../data/fashion-mnist-subset/${name}.gz`, import.meta.url)));
  return torch.from(data as Uint8Array).reshape(dims);
};
const range = (n: number): number[] => [...Array(n).keys()];

const x_train = idx('train-images-idx3-ubyte')
  .index([Slice(null, 320)])
  .reshape(-1, 784)
  .float()
  .div(255);
const y_train = idx('train-labels-idx1-ubyte')
  .index([Slice(null, 320)])
  .long();
const x_valid = idx('t10k-images-idx3-ubyte')
  .index([Slice(null, 128)])
  .reshape(-1, 784)
  .float()
  .div(255);
const y_valid = idx('t10k-labels-idx1-ubyte')
  .index([Slice(null, 128)])
  .long();
console.log(x_train.shape);

const [n] = x_train.shape;
console.log(x_train, y_train);
console.log(x_train.shape);
console.log(y_train.min(), y_train.max());

const weights = torch.randn(784, 10).div(Math.sqrt(784));
weights.requires_grad_();
const bias = torch.zeros(10, { requires_grad: true });

const bs = 64; // batch size
let xb: Tensor;
let yb: Tensor;
let loss_func: (input: Tensor, target: Tensor) => Tensor;
const F = torch.nn.functional;

function accuracy(out: Tensor, yb: Tensor): Tensor {
  const preds = torch.argmax(out, { dim: 1 });
  return preds.eq(yb).float().mean();
}

let lr = 0.5; // learning rate
const epochs = 1; // how many epochs to train for (2 in the tutorial)

{
  const log_softmax = (x: Tensor): Tensor => x.sub(x.exp().sum(-1).log().unsqueeze(-1));

  let model = (xb: Tensor): Tensor => log_softmax(xb.matmul(weights).add(bias));

  xb = x_train.index([Slice(0, bs)]); // a mini-batch from x
  const preds = model(xb); // predictions
  console.log(preds.index([0]), preds.shape);

  const nll = (input: Tensor, target: Tensor): Tensor =>
    input
      .index([range(target.shape[0]!), target])
      .mean()
      .neg();

  loss_func = nll;

  yb = y_train.index([Slice(0, bs)]);
  console.log(loss_func(preds, yb));

  console.log(accuracy(preds, yb));

  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = 0; i < Math.floor((n! - 1) / bs) + 1; i++) {
      const start_i = i * bs;
      const end_i = start_i + bs;
      xb = x_train.index([Slice(start_i, end_i)]);
      yb = y_train.index([Slice(start_i, end_i)]);
      const pred = model(xb);
      const loss = loss_func(pred, yb);

      loss.backward();
      torch.no_grad(() => {
        weights.sub_(weights.grad!.mul(lr));
        bias.sub_(bias.grad!.mul(lr));
        weights.grad!.zero_();
        bias.grad!.zero_();
      });
    }
  }

  console.log(loss_func(model(xb), yb), accuracy(model(xb), yb));

  loss_func = F.cross_entropy;

  model = (xb: Tensor): Tensor => xb.matmul(weights).add(bias);

  console.log(loss_func(model(xb), yb), accuracy(model(xb), yb));
}

const { nn } = torch;

class Mnist_Logistic extends nn.Module {
  declare weights: torch.nn.Parameter;
  declare bias: torch.nn.Parameter;
  constructor() {
    super();
    this.weights = new nn.Parameter(torch.randn(784, 10).div(Math.sqrt(784)));
    this.bias = new nn.Parameter(torch.zeros(10));
  }

  override forward(xb: Tensor): Tensor {
    return xb.matmul(this.weights).add(this.bias);
  }
}

let model: torch.nn.Module = new Mnist_Logistic();
const call = (m: torch.nn.Module, x: Tensor): Tensor => m.call(x) as Tensor;

console.log(loss_func(call(model, xb), yb));

function fit0(): void {
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = 0; i < Math.floor((n! - 1) / bs) + 1; i++) {
      const start_i = i * bs;
      const end_i = start_i + bs;
      const xb = x_train.index([Slice(start_i, end_i)]);
      const yb = y_train.index([Slice(start_i, end_i)]);
      const pred = call(model, xb);
      const loss = loss_func(pred, yb);

      loss.backward();
      torch.no_grad(() => {
        for (const p of model.parameters()) p.sub_(p.grad!.mul(lr));
        model.zero_grad();
      });
    }
  }
}

fit0();

console.log(loss_func(call(model, xb), yb));

class Mnist_Logistic2 extends nn.Module {
  declare lin: torch.nn.Linear;
  constructor() {
    super();
    this.lin = new nn.Linear(784, 10);
  }

  override forward(xb: Tensor): Tensor {
    return this.lin.call(xb);
  }
}

model = new Mnist_Logistic2();
console.log(loss_func(call(model, xb), yb));

fit0();

console.log(loss_func(call(model, xb), yb));

const { optim } = torch;

function get_model(): [torch.nn.Module, torch.optim.SGD] {
  const model = new Mnist_Logistic2();
  return [model, new optim.SGD(model.parameters(), { lr })];
}

let opt: torch.optim.SGD;
[model, opt] = get_model();
console.log(loss_func(call(model, xb), yb));

for (let epoch = 0; epoch < epochs; epoch++) {
  for (let i = 0; i < Math.floor((n! - 1) / bs) + 1; i++) {
    const start_i = i * bs;
    const end_i = start_i + bs;
    xb = x_train.index([Slice(start_i, end_i)]);
    yb = y_train.index([Slice(start_i, end_i)]);
    const pred = call(model, xb);
    const loss = loss_func(pred, yb);

    loss.backward();
    opt.step();
    opt.zero_grad();
  }
}

console.log(loss_func(call(model, xb), yb));

const { TensorDataset, DataLoader } = torch.utils.data;

let train_ds = new TensorDataset(x_train, y_train);

[model, opt] = get_model();

for (let epoch = 0; epoch < epochs; epoch++) {
  for (let i = 0; i < Math.floor((n! - 1) / bs) + 1; i++) {
    [xb, yb] = train_ds.getItem(Slice(i * bs, i * bs + bs)) as [Tensor, Tensor];
    const pred = call(model, xb);
    const loss = loss_func(pred, yb);

    loss.backward();
    opt.step();
    opt.zero_grad();
  }
}

console.log(loss_func(call(model, xb), yb));

type Loader = Iterable<Tensor[]> & { len(): number };

train_ds = new TensorDataset(x_train, y_train);
let train_dl: Loader = new DataLoader(train_ds, { batch_size: bs });

[model, opt] = get_model();

for (let epoch = 0; epoch < epochs; epoch++) {
  for ([xb, yb] of train_dl as Iterable<[Tensor, Tensor]>) {
    const pred = call(model, xb);
    const loss = loss_func(pred, yb);

    loss.backward();
    opt.step();
    opt.zero_grad();
  }
}

console.log(loss_func(call(model, xb), yb));

/** Python's `sum(iterable)`: `0 + x0 + x1 + ...`. */
const sum = (xs: Iterable<Tensor>): Tensor => [...xs].reduce((s, x) => s.add(x), torch.tensor(0));

train_ds = new TensorDataset(x_train, y_train);
train_dl = new DataLoader(train_ds, { batch_size: bs, shuffle: true });

const valid_ds = new TensorDataset(x_valid, y_valid);
let valid_dl: Loader = new DataLoader(valid_ds, { batch_size: bs * 2 });

[model, opt] = get_model();

for (let epoch = 0; epoch < epochs; epoch++) {
  model.train();
  for (const [xb, yb] of train_dl as Iterable<[Tensor, Tensor]>) {
    const pred = call(model, xb);
    const loss = loss_func(pred, yb);

    loss.backward();
    opt.step();
    opt.zero_grad();
  }

  model.eval();
  let valid_loss!: Tensor;
  torch.no_grad(() => {
    valid_loss = sum(
      (function* () {
        for (const [xb, yb] of valid_dl as Iterable<[Tensor, Tensor]>) yield loss_func(call(model, xb), yb);
      })(),
    );
  });

  console.log(epoch, valid_loss.div(valid_dl.len()));
}

function loss_batch(
  model: torch.nn.Module,
  loss_func: (input: Tensor, target: Tensor) => Tensor,
  xb: Tensor,
  yb: Tensor,
  opt: torch.optim.SGD | null = null,
): [number, number] {
  const loss = loss_func(call(model, xb), yb);

  if (opt !== null) {
    loss.backward();
    opt.step();
    opt.zero_grad();
  }

  return [loss.item() as number, xb.size(0)];
}

function fit(
  epochs: number,
  model: torch.nn.Module,
  loss_func: (input: Tensor, target: Tensor) => Tensor,
  opt: torch.optim.SGD,
  train_dl: Loader,
  valid_dl: Loader,
): void {
  for (let epoch = 0; epoch < epochs; epoch++) {
    model.train();
    for (const [xb, yb] of train_dl as Iterable<[Tensor, Tensor]>) loss_batch(model, loss_func, xb, yb, opt);

    model.eval();
    let losses: number[] = [];
    let nums: number[] = [];
    torch.no_grad(() => {
      const results = [...(valid_dl as Iterable<[Tensor, Tensor]>)].map(([xb, yb]) => loss_batch(model, loss_func, xb, yb));
      [losses, nums] = [results.map((r) => r[0]), results.map((r) => r[1])];
    });
    // np.sum(np.multiply(losses, nums)) / np.sum(nums)
    const val_loss = losses.reduce((s, l, i) => s + l * nums[i]!, 0) / nums.reduce((s, k) => s + k, 0);

    console.log(epoch, val_loss);
  }
}

function get_data(
  train_ds: InstanceType<typeof TensorDataset>,
  valid_ds: InstanceType<typeof TensorDataset>,
  bs: number,
): [Loader, Loader] {
  return [new DataLoader(train_ds, { batch_size: bs, shuffle: true }), new DataLoader(valid_ds, { batch_size: bs * 2 })];
}

[train_dl, valid_dl] = get_data(train_ds, valid_ds, bs);
[model, opt] = get_model();
fit(epochs, model, loss_func, opt, train_dl, valid_dl);

class Mnist_CNN extends nn.Module {
  declare conv1: torch.nn.Conv2d;
  declare conv2: torch.nn.Conv2d;
  declare conv3: torch.nn.Conv2d;
  constructor() {
    super();
    this.conv1 = new nn.Conv2d(1, 16, { kernel_size: 3, stride: 2, padding: 1 });
    this.conv2 = new nn.Conv2d(16, 16, { kernel_size: 3, stride: 2, padding: 1 });
    this.conv3 = new nn.Conv2d(16, 10, { kernel_size: 3, stride: 2, padding: 1 });
  }

  override forward(xb: Tensor): Tensor {
    xb = xb.view(-1, 1, 28, 28);
    xb = F.relu(this.conv1.call(xb));
    xb = F.relu(this.conv2.call(xb));
    xb = F.relu(this.conv3.call(xb));
    xb = F.avg_pool2d(xb, 4);
    return xb.view(-1, xb.size(1));
  }
}

lr = 0.1;

model = new Mnist_CNN();
opt = new optim.SGD(model.parameters(), { lr, momentum: 0.9 });

fit(epochs, model, loss_func, opt, train_dl, valid_dl);

class Lambda extends nn.Module {
  declare func: (x: Tensor) => Tensor;
  constructor(func: (x: Tensor) => Tensor) {
    super();
    this.func = func;
  }

  override forward(x: Tensor): Tensor {
    return this.func(x);
  }
}

{
  const preprocess = (x: Tensor): Tensor => x.view(-1, 1, 28, 28);

  model = new nn.Sequential(
    new Lambda(preprocess),
    new nn.Conv2d(1, 16, { kernel_size: 3, stride: 2, padding: 1 }),
    new nn.ReLU(),
    new nn.Conv2d(16, 16, { kernel_size: 3, stride: 2, padding: 1 }),
    new nn.ReLU(),
    new nn.Conv2d(16, 10, { kernel_size: 3, stride: 2, padding: 1 }),
    new nn.ReLU(),
    new nn.AvgPool2d(4),
    new Lambda((x) => x.view(x.size(0), -1)),
  );

  opt = new optim.SGD(model.parameters(), { lr, momentum: 0.9 });

  fit(epochs, model, loss_func, opt, train_dl, valid_dl);
}

let preprocess = (x: Tensor, y: Tensor): [Tensor, Tensor] => [x.view(-1, 1, 28, 28), y];

class WrappedDataLoader {
  constructor(
    readonly dl: Loader,
    readonly func: (x: Tensor, y: Tensor) => [Tensor, Tensor],
  ) {}

  len(): number {
    return this.dl.len();
  }

  *[Symbol.iterator](): Iterator<Tensor[]> {
    const batches = this.dl as Iterable<[Tensor, Tensor]>;
    for (const b of batches) yield this.func(...b);
  }
}

[train_dl, valid_dl] = get_data(train_ds, valid_ds, bs);
train_dl = new WrappedDataLoader(train_dl, preprocess);
valid_dl = new WrappedDataLoader(valid_dl, preprocess);

model = new nn.Sequential(
  new nn.Conv2d(1, 16, { kernel_size: 3, stride: 2, padding: 1 }),
  new nn.ReLU(),
  new nn.Conv2d(16, 16, { kernel_size: 3, stride: 2, padding: 1 }),
  new nn.ReLU(),
  new nn.Conv2d(16, 10, { kernel_size: 3, stride: 2, padding: 1 }),
  new nn.ReLU(),
  new nn.AdaptiveAvgPool2d(1),
  new Lambda((x) => x.view(x.size(0), -1)),
);

opt = new optim.SGD(model.parameters(), { lr, momentum: 0.9 });

fit(epochs, model, loss_func, opt, train_dl, valid_dl);

console.log(torch.cuda.is_available());

const dev = torch.cuda.is_available() ? torch.device('cuda') : torch.device('cpu');

preprocess = (x, y) => [x.view(-1, 1, 28, 28).to(dev), y.to(dev)];

[train_dl, valid_dl] = get_data(train_ds, valid_ds, bs);
train_dl = new WrappedDataLoader(train_dl, preprocess);
valid_dl = new WrappedDataLoader(valid_dl, preprocess);

model.to(dev);
opt = new optim.SGD(model.parameters(), { lr, momentum: 0.9 });

fit(epochs, model, loss_func, opt, train_dl, valid_dl);
