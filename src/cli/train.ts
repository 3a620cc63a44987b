// `npm start`: trains a LeNet-style CNN on Fashion-MNIST, the training script a PyTorch user writes, line for
// line (nn.Module, nn.functional, optim.SGD, utils.data.DataLoader), and reports test accuracy. The same model,
// seed, shuffling and optimiser as tools/golden/gen_train.py, which records PyTorch's loss curve; test/cli/
// train.test.ts checks that this one follows it. Node only (it reads files and prints).

import { torch, nn, optim, utils, type Tensor } from '../node.js';
import { ScalarType } from '../c10/ScalarType.js';
import { loadFashionMNIST, FASHION_SUBSET_DIR } from './fashion_mnist.js';

const F = nn.functional;

/** The model: two conv + max-pool stages and three linear layers (LeNet-5 on 28×28 inputs). */
export class LeNet extends nn.Module {
  declare conv1: nn.Conv2d;
  declare conv2: nn.Conv2d;
  declare fc1: nn.Linear;
  declare fc2: nn.Linear;
  declare fc3: nn.Linear;

  constructor() {
    super();
    this.conv1 = new nn.Conv2d(1, 6, 5);
    this.conv2 = new nn.Conv2d(6, 16, 5);
    this.fc1 = new nn.Linear(16 * 4 * 4, 120);
    this.fc2 = new nn.Linear(120, 84);
    this.fc3 = new nn.Linear(84, 10);
  }

  override forward(x: Tensor): Tensor {
    x = F.max_pool2d(F.relu(this.conv1.call(x)), 2);
    x = F.max_pool2d(F.relu(this.conv2.call(x)), 2);
    x = torch.flatten(x, 1);
    x = F.relu(this.fc1.call(x));
    x = F.relu(this.fc2.call(x));
    return this.fc3.call(x);
  }
}

export interface TrainOptions {
  /** A folder with the four IDX files (default: the subset in data/fashion-mnist-subset). */
  data?: string;
  epochs?: number;
  batch_size?: number;
  lr?: number;
  momentum?: number;
  seed?: number;
  /** Stop after this many training steps (for tests); default: no limit. */
  max_steps?: number;
  /** Called after every step with the epoch, the step within it, the number of steps per epoch and the loss. */
  onStep?: (epoch: number, step: number, steps: number, loss: number) => void;
  /** Called after every epoch with its test accuracy and wall time. */
  onEpoch?: (epoch: number, accuracy: number, ms: number) => void;
}

export interface TrainResult {
  model: LeNet;
  /** The loss of every step of the first epoch. */
  losses: number[];
  /** Test accuracy after each epoch. */
  accuracy: number[];
  /** confusion[true][predicted] over the test set after the last epoch. */
  confusion: number[][];
  trainSize: number;
  testSize: number;
}

/** The whole set as one float32 [N, 1, 28, 28] tensor in [0, 1] (ToTensor) and int64 labels. */
function asTensors(set: utils.data.FashionMNIST): [Tensor, Tensor] {
  return [set.data.unsqueeze(1).to(ScalarType.Float).div(255), set.targets];
}

/** Trains and evaluates as tools/golden/gen_train.py does with PyTorch. */
export function train(options: TrainOptions = {}): TrainResult {
  const dir = options.data ?? FASHION_SUBSET_DIR;
  const { epochs = 2, batch_size = 64, lr = 0.05, momentum = 0.9, seed = 0 } = options;
  const [xTrain, yTrain] = asTensors(loadFashionMNIST(dir, { train: true }));
  const [xTest, yTest] = asTensors(loadFashionMNIST(dir, { train: false }));

  torch.manualSeed(seed);
  const model = new LeNet();
  const opt = new optim.SGD(model.parameters(), { lr, momentum });
  const loader = new utils.data.DataLoader(new utils.data.TensorDataset(xTrain, yTrain), {
    batch_size,
    shuffle: true,
    generator: new torch.Generator().manualSeed(seed),
  });
  const steps = loader.len();
  const losses: number[] = [];
  const accuracy: number[] = [];
  let confusion: number[][] = [];
  let done = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const start = performance.now();
    model.train();
    let step = 0;
    for (const [xb, yb] of loader as Iterable<[Tensor, Tensor]>) {
      opt.zero_grad();
      const loss = F.cross_entropy(model.call(xb), yb);
      loss.backward();
      opt.step();
      const value = loss.item() as number;
      if (epoch === 0) losses.push(value);
      options.onStep?.(epoch, step++, steps, value);
      if (options.max_steps !== undefined && ++done >= options.max_steps) break;
    }
    model.eval();
    const pred = torch.noGrad(() => model.call(xTest).argmax(1));
    const p = pred.tolist() as number[];
    const y = yTest.tolist() as number[];
    confusion = Array.from({ length: 10 }, () => new Array<number>(10).fill(0));
    let correct = 0;
    for (let i = 0; i < y.length; i++) {
      confusion[y[i]!]![p[i]!]!++;
      if (p[i] === y[i]) correct++;
    }
    accuracy.push(correct / y.length);
    options.onEpoch?.(epoch, correct / y.length, performance.now() - start);
    if (options.max_steps !== undefined && done >= options.max_steps) break;
  }
  return { model, losses, accuracy, confusion, trainSize: xTrain.size(0), testSize: xTest.size(0) };
}

// ---- the command: progress bar, epoch summaries, confusion matrix, --save, --profile ----------------------

export interface TrainCommandOptions {
  data?: string;
  epochs: string;
  batchSize: string;
  lr: string;
  seed: string;
  save?: string;
  profile?: boolean;
}

function positive(name: string, text: string, integer: boolean): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
    throw new Error(`--${name} expects a positive ${integer ? 'integer' : 'number'}, got '${text}'`);
  }
  return v;
}

/** The confusion matrix as a table: rows are true classes, columns predictions. */
export function confusionTable(confusion: number[][], classes: readonly string[]): string {
  const short = classes.map((c) => c.slice(0, 7));
  const w = Math.max(5, ...confusion.flat().map((v) => String(v).length)) + 1;
  const head = ' '.repeat(13) + short.map((c) => c.padStart(Math.max(w, c.length + 1))).join('');
  const rows = confusion.map(
    (row, i) => (short[i] ?? '').padEnd(13) + row.map((v, j) => String(v).padStart(Math.max(w, (short[j] ?? '').length + 1))).join(''),
  );
  return [head, ...rows].join('\n');
}

export async function trainCommand(opts: TrainCommandOptions): Promise<void> {
  const { SingleBar, Presets } = (await import('cli-progress')).default;
  const { startProfile } = await import('./profile.js');
  const epochs = positive('epochs', opts.epochs, true);
  const batch_size = positive('batch-size', opts.batchSize, true);
  const lr = positive('lr', opts.lr, false);
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed expects a non-negative integer, got '${opts.seed}'`);
  const dir = opts.data ?? FASHION_SUBSET_DIR;
  console.log(`Fashion-MNIST from ${dir}; LeNet, SGD(lr=${lr}, momentum=0.9), batch ${batch_size}, seed ${seed}`);
  const profile = opts.profile === true ? startProfile() : null;
  const bar = new SingleBar(
    {
      format: 'epoch {epoch} |{bar}| {value}/{total} batches | loss {loss} | {ips} img/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 20,
    },
    Presets.shades_classic,
  );
  let epochStart = performance.now();
  let running = 0;
  const result = train({
    data: dir,
    epochs,
    batch_size,
    lr,
    seed,
    onStep: (epoch, step, steps, loss) => {
      if (step === 0) {
        epochStart = performance.now();
        running = 0;
        bar.start(steps, 0, { epoch: epoch + 1, loss: '-', ips: '-' });
      }
      running += loss;
      const seconds = (performance.now() - epochStart) / 1000;
      bar.update(step + 1, { loss: (running / (step + 1)).toFixed(4), ips: Math.round(((step + 1) * batch_size) / seconds) });
    },
    onEpoch: (epoch, accuracy, ms) => {
      bar.stop();
      console.log(
        `epoch ${epoch + 1}/${epochs}: mean loss ${(running / Math.max(1, bar.getTotal())).toFixed(4)}, ` +
          `test accuracy ${(accuracy * 100).toFixed(2)}%, ${(ms / 1000).toFixed(1)} s`,
      );
    },
  });
  profile?.stop(console.log);
  const last = result.accuracy[result.accuracy.length - 1] ?? 0;
  console.log(`\ntest accuracy ${(last * 100).toFixed(2)}% on ${result.testSize} images (trained on ${result.trainSize})`);
  console.log('confusion matrix (rows: true class, columns: predicted)');
  console.log(confusionTable(result.confusion, utils.data.FashionMNIST.classes));
  if (opts.save !== undefined) {
    torch.save(result.model.state_dict(), opts.save);
    console.log(`saved the state_dict to ${opts.save} (torch.load(path, weights_only=True) reads it)`);
  }
}

export const BARS = '▁▂▃▄▅▆▇█';

/**
 * Two loss curves as sparklines on the reference's scale (means over 8 steps; the reference's lowest mean is
 * the lowest bar, its highest the highest): how the README shows aten-ts following PyTorch.
 */
export function lossCurves(reference: number[], ours: number[], every = 8): [string, string] {
  const means = (l: number[]): number[] =>
    Array.from({ length: Math.ceil(l.length / every) }, (_, i) => {
      const s = l.slice(i * every, (i + 1) * every);
      return s.reduce((a, b) => a + b, 0) / s.length;
    });
  const [a, b] = [means(reference), means(ours)];
  const lo = Math.min(...a);
  const hi = Math.max(...a);
  const bar = (v: number): string => BARS[Math.max(0, Math.min(7, Math.floor(((v - lo) / (hi - lo || 1)) * 8)))] ?? '';
  return [a.map(bar).join(''), b.map(bar).join('')];
}
