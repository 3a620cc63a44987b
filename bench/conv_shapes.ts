// Forward, input gradient and weight gradient of each LeNet and ResNet-18 convolution (the list of
// bench/conv_shapes.py, PyTorch's twin), and a ResNet-18 eval forward of 8x3x224x224: time per call, the
// median of ROUNDS rounds (each the mean of a few calls in torch.scope); on one thread CPU time (user +
// system), else (or with WALL=1) wall time. With AB=1 every piece is timed with the chosen algorithms (Note
// [Convolution algorithm per shape]) and 'legacy' (the rule before it, one gemm per image and group)
// alternated in each round; with AB=algos 'gemm' and 'direct' (each forced wherever it applies: the
// measurements behind the Note's thresholds). PROFILE=1 adds the ResNet forward's operator table (stderr).
// Prints one JSON object.
// Run: T=1 npx tsx bench/conv_shapes.ts [ROUNDS] [filter]   (T=2 for two threads; PyTorch: bench/conv_shapes.py)
import { torch } from '../src/node.js';
import { aten } from '../src/generated/Operators.js';
import type { Tensor } from '../src/tensor/Tensor.js';
import { convSettings } from '../src/kernels/ConvolutionMM2d.js';

torch.setNumThreads(Number(process.env.T ?? 1));
const rounds = Number(process.argv[2] ?? 7);
const filter = process.argv[3] ?? '';
// On one thread CPU time (user + system: less sensitive to other processes on a shared machine), else wall time.
const cpuTime = Number(process.env.T ?? 1) === 1 && process.env.WALL !== '1';
type Side = 'chosen' | 'legacy' | 'gemm' | 'direct';
const sides: Side[] = process.env.AB === '1' ? ['chosen', 'legacy'] : process.env.AB === 'algos' ? ['gemm', 'direct'] : ['chosen'];

type Shape = [string, number[], number[], number, number];
const SHAPES: Shape[] = [
  ['lenet.conv1', [64, 1, 28, 28], [6, 1, 5, 5], 1, 0],
  ['lenet.conv2', [64, 6, 12, 12], [16, 6, 5, 5], 1, 0],
  ['rn.stem', [8, 3, 224, 224], [64, 3, 7, 7], 2, 3],
  ['rn.l1.3x3', [8, 64, 56, 56], [64, 64, 3, 3], 1, 1],
  ['rn.l2.3x3s2', [8, 64, 56, 56], [128, 64, 3, 3], 2, 1],
  ['rn.l2.3x3', [8, 128, 28, 28], [128, 128, 3, 3], 1, 1],
  ['rn.l2.1x1s2', [8, 64, 56, 56], [128, 64, 1, 1], 2, 0],
  ['rn.l3.3x3s2', [8, 128, 28, 28], [256, 128, 3, 3], 2, 1],
  ['rn.l3.3x3', [8, 256, 14, 14], [256, 256, 3, 3], 1, 1],
  ['rn.l3.1x1s2', [8, 128, 28, 28], [256, 128, 1, 1], 2, 0],
  ['rn.l4.3x3s2', [8, 256, 14, 14], [512, 256, 3, 3], 2, 1],
  ['rn.l4.3x3', [8, 512, 7, 7], [512, 512, 3, 3], 1, 1],
  ['rn.l4.1x1s2', [8, 256, 14, 14], [512, 256, 1, 1], 2, 0],
];

const setSide = (side: Side): void => void Object.assign(convSettings, { algorithm: side, batched: side !== 'legacy' });

/** ms per call of each side, median over rounds, the sides alternated within each round. */
function timed(fs: Record<string, () => void>, reps: number): Record<string, number> {
  const times: Record<string, number[]> = {};
  for (const side of sides) {
    setSide(side);
    torch.scope(fs[side] as () => void); // warm-up
    times[side] = [];
  }
  for (let r = 0; r < rounds; r++) {
    for (const side of sides) {
      setSide(side);
      const [s, c] = [performance.now(), process.cpuUsage()];
      for (let i = 0; i < reps; i++) torch.scope(fs[side] as () => void);
      const cpu = process.cpuUsage(c);
      times[side]?.push((cpuTime ? (cpu.user + cpu.system) / 1e3 : performance.now() - s) / reps);
    }
  }
  setSide('chosen');
  const med = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1] as number;
  return Object.fromEntries(sides.map((s) => [s, Number(med(times[s] as number[]).toFixed(3))]));
}
const each = (f: () => void): Record<string, () => void> => Object.fromEntries(sides.map((s) => [s, f]));

torch.manualSeed(0);
const out: Record<string, Record<string, Record<string, number>>> = {};
for (const [name, xs, ws, s, p] of SHAPES) {
  if (!name.includes(filter)) continue;
  const [x, w] = [torch.randn(xs), torch.randn(ws)];
  const y = torch.noGrad(() => torch.conv2d(x, w, null, s, p));
  const g = torch.randn(y.sizes);
  const macs = y.numel() * (ws[1] as number) * (ws[2] as number) * (ws[3] as number);
  const reps = Math.max(1, Math.floor(2e7 / macs));
  out[name] = {
    fwd: timed(
      each(() => void torch.noGrad(() => torch.conv2d(x, w, null, s, p))),
      reps,
    ),
    gx: timed(
      each(() => void aten()._conv2d_backward_input.call(g, x, w, [s, s], [p, p], [1, 1], 1)),
      reps,
    ),
    gw: timed(
      each(() => void aten()._conv2d_backward_weight.call(g, x, w, [s, s], [p, p], [1, 1], 1)),
      reps,
    ),
  };
  console.error(name, JSON.stringify(out[name]));
}

/** ResNet-18 (torchvision's layout), eval mode, random weights; batch norm with running statistics. */
function resnet18(): (x: Tensor) => Tensor {
  const bn = (c: number): Tensor[] => [
    torch.randn(c).mul(0.1),
    torch.rand(c).add(0.5),
    torch.randn(c).mul(0.1).add(1),
    torch.randn(c).mul(0.1),
  ];
  const bnf = (x: Tensor, [mean, vr, wt, b]: Tensor[]): Tensor =>
    torch.batch_norm(x, wt as Tensor, b as Tensor, mean as Tensor, vr as Tensor, false, 0.1, 1e-5, true);
  type Block = { w1: Tensor; bn1: Tensor[]; w2: Tensor; bn2: Tensor[]; stride: number; wd?: Tensor; bnd?: Tensor[] };
  const blocks: Block[] = [];
  let cin = 64;
  for (const [cout, stride] of [
    [64, 1],
    [128, 2],
    [256, 2],
    [512, 2],
  ] as [number, number][]) {
    for (const [ci, st] of [
      [cin, stride],
      [cout, 1],
    ] as [number, number][]) {
      const b: Block = {
        w1: torch.randn(cout, ci, 3, 3).mul(0.05),
        bn1: bn(cout),
        w2: torch.randn(cout, cout, 3, 3).mul(0.05),
        bn2: bn(cout),
        stride: st,
      };
      if (st !== 1 || ci !== cout) Object.assign(b, { wd: torch.randn(cout, ci, 1, 1).mul(0.05), bnd: bn(cout) });
      blocks.push(b);
    }
    cin = cout;
  }
  const stem = torch.randn(64, 3, 7, 7).mul(0.05);
  const bn0 = bn(64);
  const fc = torch.randn(1000, 512).mul(0.05);
  return (x0) => {
    let x = torch.max_pool2d(torch.relu(bnf(torch.conv2d(x0, stem, null, 2, 3), bn0)), 3, 2, 1);
    for (const b of blocks) {
      let y = torch.relu(bnf(torch.conv2d(x, b.w1, null, b.stride, 1), b.bn1));
      y = bnf(torch.conv2d(y, b.w2, null, 1, 1), b.bn2);
      const sc = b.wd === undefined ? x : bnf(torch.conv2d(x, b.wd, null, b.stride, 0), b.bnd as Tensor[]);
      x = torch.relu(y.add(sc));
    }
    return torch.linear(torch.flatten(torch.adaptive_avg_pool2d(x, 1), 1), fc);
  };
}
if ('resnet18'.includes(filter) || filter === '') {
  const f = resnet18();
  const x = torch.randn(8, 3, 224, 224);
  out['resnet18.eval.8x224'] = {
    fwd: timed(
      each(() => void torch.noGrad(() => f(x))),
      1,
    ),
  };
  if (process.env.PROFILE === '1') {
    // Where the forward's time goes by operator (self CPU time), as PyTorch's twin prints with PROFILE=1.
    const prof = new torch.profiler.profile({ activities: ['CPU'] });
    prof.run(() => torch.scope(() => void torch.noGrad(() => f(x))));
    console.error(prof.key_averages().table({ sort_by: 'self_cpu_time_total', row_limit: 12 }));
  }
}
console.log(JSON.stringify(out));
