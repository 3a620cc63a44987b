// Training a Classifier — PyTorch's beginner_source/blitz/cifar10_tutorial.py, ported line for line on the CPU.
// CIFAR-10 is replaced by deterministic synthetic 3x32x32 images both languages make the same way (torch.rand with
// a seeded Generator, the class added as a brightness offset so there is something to learn): 100 training and 20
// test images instead of 50000 and 10000, printing every 10 mini-batches instead of 2000; torchvision's
// Normalize/Compose are plain functions on tensors (torchvision is not part of aten-ts); num_workers=0; matplotlib's
// lines left out; a seed added; the weights file in the system's temporary folder; a class absent from the 20 test
// images counts as 0 % (max(total, 1)); as its twin tools/golden/tutorials/cifar10.py.
// Run: npx tsx examples/tutorials/cifar10.ts
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { torch, type Tensor } from 'aten-ts';

torch.manual_seed(0);

/** torchvision.datasets.CIFAR10(root='./data', train=train, download=True, transform=transform). */
class SyntheticCIFAR10 extends torch.utils.data.Dataset<[Tensor, number]> {
  targets: Tensor;
  data: Tensor;
  transform: ((img: Tensor) => Tensor) | null;

  constructor({ train = true, transform = null }: { train?: boolean; transform?: ((img: Tensor) => Tensor) | null } = {}) {
    super();
    const g = new torch.Generator().manual_seed(train ? 1 : 2);
    const n = train ? 100 : 20;
    this.targets = torch.randint(0, 10, [n], { generator: g });
    this.data = torch
      .rand(n, 3, 32, 32, { generator: g })
      .mul(0.5)
      .add(this.targets.view(-1, 1, 1, 1).div(20));
    this.transform = transform;
  }

  override len(): number {
    return this.data.size(0);
  }

  override getItem(i: number): [Tensor, number] {
    let img = this.data.index([i]);
    const target = this.targets.index([i]).item() as number;
    if (this.transform !== null) img = this.transform(img);
    return [img, target];
  }
}

const Normalize =
  (mean: number[], std: number[]) =>
  (img: Tensor): Tensor =>
    img.sub(torch.tensor(mean).view(-1, 1, 1)).div(torch.tensor(std).view(-1, 1, 1));

const Compose =
  (transforms: ((img: Tensor) => Tensor)[]) =>
  (img: Tensor): Tensor => {
    for (const t of transforms) img = t(img);
    return img;
  };

const transform = Compose([Normalize([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])]);

type Batch = [Tensor, Tensor];
const trainset = new SyntheticCIFAR10({ train: true, transform });
const trainloader = new torch.utils.data.DataLoader<[Tensor, number], Batch>(trainset, { batch_size: 4, shuffle: true, num_workers: 0 });

const testset = new SyntheticCIFAR10({ train: false, transform });
const testloader = new torch.utils.data.DataLoader<[Tensor, number], Batch>(testset, { batch_size: 4, shuffle: false, num_workers: 0 });

const classes = ['plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck'];
const label = (t: Tensor, j: number): string => classes[t.index([j]).item() as number]!.padStart(5); // '%5s' % classes[t[j]]
const range = (n: number): number[] => [...Array(n).keys()];

// get some random training images
let dataiter = trainloader[Symbol.iterator]();
let [images, labels] = dataiter.next().value as Batch;

// print labels
console.log(
  range(4)
    .map((j) => label(labels, j))
    .join(' '),
);

const { nn } = torch;
const F = torch.nn.functional;

class Net extends nn.Module {
  declare conv1: torch.nn.Conv2d;
  declare pool: torch.nn.MaxPool2d;
  declare conv2: torch.nn.Conv2d;
  declare fc1: torch.nn.Linear;
  declare fc2: torch.nn.Linear;
  declare fc3: torch.nn.Linear;

  constructor() {
    super();
    this.conv1 = new nn.Conv2d(3, 6, 5);
    this.pool = new nn.MaxPool2d(2, 2);
    this.conv2 = new nn.Conv2d(6, 16, 5);
    this.fc1 = new nn.Linear(16 * 5 * 5, 120);
    this.fc2 = new nn.Linear(120, 84);
    this.fc3 = new nn.Linear(84, 10);
  }

  override forward(x: Tensor): Tensor {
    x = this.pool.call(F.relu(this.conv1.call(x))) as Tensor;
    x = this.pool.call(F.relu(this.conv2.call(x))) as Tensor;
    x = x.view(-1, 16 * 5 * 5);
    x = F.relu(this.fc1.call(x));
    x = F.relu(this.fc2.call(x));
    x = this.fc3.call(x);
    return x;
  }
}

let net = new Net();

const { optim } = torch;

const criterion = new nn.CrossEntropyLoss();
const optimizer = new optim.SGD(net.parameters(), { lr: 0.001, momentum: 0.9 });

for (let epoch = 0; epoch < 2; epoch++) {
  // loop over the dataset multiple times

  let running_loss = 0.0;
  let i = 0;
  for (const data of trainloader) {
    // get the inputs; data is a list of [inputs, labels]
    const [inputs, labels] = data;

    // zero the parameter gradients
    optimizer.zero_grad();

    // forward + backward + optimize
    const outputs = net.call(inputs);
    const loss = criterion.call(outputs, labels);
    loss.backward();
    optimizer.step();

    // print statistics
    running_loss += loss.item() as number;
    if (i % 10 === 9) {
      // print every 10 mini-batches
      console.log(`[${epoch + 1}, ${String(i + 1).padStart(5)}] loss: ${(running_loss / 10).toFixed(3)}`);
      running_loss = 0.0;
    }
    i++;
  }
}

console.log('Finished Training');

const PATH = join(tmpdir(), 'cifar_net.pth');
torch.save(net.state_dict(), PATH);

dataiter = testloader[Symbol.iterator]();
[images, labels] = dataiter.next().value as Batch;

console.log(
  'GroundTruth: ',
  range(4)
    .map((j) => label(labels, j))
    .join(' '),
);

net = new Net();
net.load_state_dict(torch.load(PATH, { weights_only: true }) as Record<string, Tensor>);

let outputs = net.call(images);

let [, predicted] = torch.max(outputs, 1) as [Tensor, Tensor];

console.log(
  'Predicted: ',
  range(4)
    .map((j) => label(predicted, j))
    .join(' '),
);

let correct = 0;
let total = 0;
torch.no_grad(() => {
  for (const data of testloader) {
    [images, labels] = data;
    outputs = net.call(images);
    [, predicted] = torch.max(outputs.data, 1) as [Tensor, Tensor];
    total += labels.size(0);
    correct += predicted.eq(labels).sum().item() as number;
  }
});

console.log(`Accuracy of the network on the 20 test images: ${Math.trunc((100 * correct) / total)} %`);

const class_correct = range(10).map(() => 0);
const class_total = range(10).map(() => 0);
torch.no_grad(() => {
  for (const data of testloader) {
    [images, labels] = data;
    outputs = net.call(images);
    [, predicted] = torch.max(outputs, 1) as [Tensor, Tensor];
    const c = predicted.eq(labels).squeeze();
    for (let i = 0; i < 4; i++) {
      const label = labels.index([i]).item() as number;
      class_correct[label]! += Number(c.index([i]).item());
      class_total[label]! += 1;
    }
  }
});

for (let i = 0; i < 10; i++) {
  const pct = Math.trunc((100 * class_correct[i]!) / Math.max(class_total[i]!, 1));
  console.log(`Accuracy of ${classes[i]!.padStart(5)} : ${String(pct).padStart(2)} %`);
}

const device = torch.device(torch.cuda.is_available() ? 'cuda:0' : 'cpu');

console.log(String(device));
