// Counts a CNN's FLOPs per module with FlopCounterMode (forward and backward, PyTorch's formulas), then
// runs the same model under FakeTensorMode for its shapes only, without allocating tensor memory.
// Run: npm run build, then npx tsx examples/flop-counter.ts (test/examples.test.ts and npm run test:package run
// it too; the latter checks its output against flop-counter.expected.txt: PyTorch 2.13's counts for this model).
import { torch, type Tensor } from 'aten-ts';

const { nn } = torch;
const F = nn.functional;

class Net extends nn.Module {
  declare conv1: InstanceType<typeof nn.Conv2d>;
  declare conv2: InstanceType<typeof nn.Conv2d>;
  declare fc: InstanceType<typeof nn.Linear>;
  constructor() {
    super();
    this.conv1 = new nn.Conv2d(1, 6, 5);
    this.conv2 = new nn.Conv2d(6, 16, 5);
    this.fc = new nn.Linear(256, 10);
  }
  override forward(x: Tensor): Tensor {
    x = F.max_pool2d(F.relu(this.conv1.call(x)), 2);
    x = F.max_pool2d(F.relu(this.conv2.call(x)), 2);
    return this.fc.call(x.flatten(1));
  }
}

/** The FLOP table of one training step at batch 2, and the output shape of a fake batch of 4096. */
export function flopCounterExample(): { table: string; total: number; perModule: Record<string, number>; fakeShape: number[] } {
  torch.manualSeed(0);
  const model = new Net();
  const counter = new torch.utils.flop_counter.FlopCounterMode({ display: false });
  counter.run(() =>
    model
      .call(torch.randn([2, 1, 28, 28]))
      .sum()
      .backward(),
  );
  const perModule: Record<string, number> = {};
  for (const [mod, ops] of Object.entries(counter.get_flop_counts())) perModule[mod] = Object.values(ops).reduce((a, b) => a + b, 0);
  // FakeTensorMode: a batch far too big to matter, and no memory is allocated for it.
  const fake = new torch._subclasses.FakeTensorMode();
  const fakeShape = fake.run(() => new Net().call(torch.empty([4096, 1, 28, 28])).shape);
  return { table: counter.get_table(), total: counter.get_total_flops(), perModule, fakeShape };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = flopCounterExample();
  console.log(r.table);
  console.log(`total FLOPs of one training step (batch 2): ${r.total}`);
  console.log(`fake forward of a 4096-image batch: output shape [${r.fakeShape.join(', ')}]`);
}
