// The measurements of `npm run bench:webgpu`, shared by the Node run (Dawn) and the Chromium page (bench/webgpu.ts
// serves this file transpiled): no Node API, no value imports (the caller hands in both namespaces). On the
// adapter the device opened: LeNet, MLP and transformer-encoder training steps on webgpu against the same on the
// cpu device (the first webgpu step, which compiles the pipelines, apart), matmul GFLOP/s, the matmul kernel's
// variants A/B (vec4 global loads, the small-output split-K path: bench/webgpu_matmul.ts), a 1e7-element add in
// GB/s beside a WGSL vec4 copy kernel (the roofline: one read and one write per element), and the 1-element add
// latency (dispatch only, and with the awaited read). A SwiftShader adapter is a CPU implementation: its figures
// are not GPU figures, and the suite runs shorter there (3 steps, a smaller transformer batch, one matmul of 1024
// only, unless `full`). It returns the cells the page's comparison table shares with TensorFlow.js and jax-js
// (bench/webgpu_others.ts).

import { matmulVariants } from './webgpu_matmul.js';

type Aten = typeof import('../src/index.js');
type WebGPU = typeof import('../src/webgpu/index.js');
type Tensor = import('../src/index.js').Tensor;
type Variants = typeof import('../src/webgpu/kernels/LinearAlgebra.js').matmulVariants;

/** The rows every column of the page's comparison table fills (aten-ts, TensorFlow.js, jax-js). */
export const CELLS = ['matmul 1024', 'matmul 2048', 'add 1e7', '1-element add', 'MLP step'] as const;
export type Cells = Record<string, string>;

/** The sections `--only a,b` may pick. */
export const SECTIONS = ['lenet', 'mlp', 'transformer', 'matmul', 'variants', 'add', 'latency'] as const;

export interface SuiteOptions {
  /** The adapter as `init()` described it. */
  readonly adapter: { vendor: string; architecture: string; description: string };
  /** Run every size and step count even on a CPU adapter (SwiftShader). */
  readonly full: boolean;
  readonly log: (line: string) => void;
  /** Only these sections (all when absent). */
  readonly only?: ReadonlySet<string>;
  /** The matmul kernel's switches (src/webgpu/kernels/LinearAlgebra.ts), for the variants' A/B. */
  readonly variants?: Variants;
}

const now = (): number => performance.now();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number, digits = 2): string => x.toFixed(digits);

export async function runWebGPUBench(aten: Aten, webgpu: WebGPU, options: SuiteOptions): Promise<Cells> {
  const { torch, nn } = aten;
  const F = nn.functional;
  const { log } = options;
  const on = (section: string): boolean => options.only === undefined || options.only.has(section);
  const cpuAdapter = /swiftshader/i.test(`${options.adapter.vendor} ${options.adapter.architecture} ${options.adapter.description}`);
  const quick = cpuAdapter && !options.full;
  const adapterName = `${options.adapter.vendor}/${options.adapter.architecture}`;
  const at = (v: string): string => `${v} [${adapterName}]`;
  const cells: Cells = {};
  log(`adapter: ${options.adapter.vendor}/${options.adapter.architecture} ${options.adapter.description}`.trim());
  if (cpuAdapter) log('  SwiftShader is a CPU implementation of WebGPU: these are not GPU figures');
  const sync = (): Promise<void> => webgpu.synchronize();

  // ---- training steps (first: the first webgpu step compiles the device's pipelines) ----
  class LeNet extends nn.Module {
    declare conv1: InstanceType<typeof nn.Conv2d>;
    declare conv2: InstanceType<typeof nn.Conv2d>;
    declare fc1: InstanceType<typeof nn.Linear>;
    declare fc2: InstanceType<typeof nn.Linear>;
    declare fc3: InstanceType<typeof nn.Linear>;
    constructor() {
      super();
      this.conv1 = new nn.Conv2d(1, 6, 5);
      this.conv2 = new nn.Conv2d(6, 16, 5);
      this.fc1 = new nn.Linear(256, 120);
      this.fc2 = new nn.Linear(120, 84);
      this.fc3 = new nn.Linear(84, 10);
    }
    override forward(x: Tensor): Tensor {
      x = F.max_pool2d(F.relu(this.conv1.call(x) as Tensor), 2);
      x = F.max_pool2d(F.relu(this.conv2.call(x) as Tensor), 2);
      x = torch.flatten(x, 1);
      x = F.relu(this.fc1.call(x) as Tensor);
      x = F.relu(this.fc2.call(x) as Tensor);
      return this.fc3.call(x) as Tensor;
    }
  }
  // bench/jobs's encoder job (bench/jobs/models.ts EncoderClassifier): nn.TransformerEncoder (post-norm,
  // batch_first, dropout 0), 2 layers, d_model 128, 4 heads, ff 512, mean over the sequence, a linear head; Adam.
  class Encoder extends nn.Module {
    declare encoder: InstanceType<typeof nn.TransformerEncoder>;
    declare head: InstanceType<typeof nn.Linear>;
    constructor() {
      super();
      const layer = new nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512, dropout: 0, batch_first: true });
      this.encoder = new nn.TransformerEncoder(layer, 2, { enable_nested_tensor: false });
      this.head = new nn.Linear(128, 10);
    }
    override forward(x: Tensor): Tensor {
      return this.head.call((this.encoder.call(x) as Tensor).mean(1)) as Tensor;
    }
  }
  type Optimizer = InstanceType<typeof torch.optim.SGD> | InstanceType<typeof torch.optim.Adam>;
  const sgd = (m: InstanceType<typeof nn.Module>): Optimizer => new torch.optim.SGD(m.parameters(), { lr: 0.01, momentum: 0.9 });
  // The encoder's batch on SwiftShader: 2 sequences of 64 (bench/jobs: 16), so that a step takes seconds, not minutes.
  const encBatch = quick ? 2 : 16;
  const models: [string, string, () => InstanceType<typeof nn.Module>, number[], (m: InstanceType<typeof nn.Module>) => Optimizer][] = [
    ['lenet', 'LeNet (batch 64, SGD momentum)', () => new LeNet(), [64, 1, 28, 28], sgd],
    [
      'mlp',
      'MLP 784-128-10 (batch 64, SGD momentum)',
      () => new nn.Sequential(new nn.Linear(784, 128), new nn.ReLU(), new nn.Linear(128, 10)),
      [64, 784],
      sgd,
    ],
    [
      'transformer',
      `transformer encoder 2x(d128, 4 heads, ff 512) (batch ${encBatch}${quick ? ' on SwiftShader, bench/jobs: 16' : ''}, seq 64, Adam)`,
      () => new Encoder(),
      [encBatch, 64, 128],
      (m) => new torch.optim.Adam(m.parameters(), { lr: 1e-3 }),
    ],
  ];
  const steps = quick ? 3 : 20;
  for (const [section, name, make, shape, optimizer] of models) {
    if (!on(section)) continue;
    const ms: Record<string, number> = {};
    let first = 0;
    let compiled = 0;
    for (const device of ['webgpu', 'cpu']) {
      torch.manual_seed(0);
      const model = make().to(device);
      const opt = optimizer(model);
      const x = torch.rand(shape).to(device);
      const y = torch.randint(0, 10, [shape[0]!]).to(device);
      const step = (): Tensor => {
        opt.zero_grad();
        const loss = F.cross_entropy(model.call(x) as Tensor, y);
        loss.backward();
        opt.step();
        return loss;
      };
      if (device === 'webgpu') {
        const before = webgpu.stats().pipelinesCompiled;
        const t0 = now();
        await step().item_async();
        first = now() - t0;
        compiled = webgpu.stats().pipelinesCompiled - before;
      } else step();
      // Steady state: `steps` steps encoded back to back, one read at the end (as a loop that logs every N steps).
      const t0 = now();
      let loss: Tensor | null = null;
      for (let i = 0; i < steps; i++) loss = step();
      if (device === 'webgpu') await loss!.item_async();
      else loss!.item();
      ms[device] = (now() - t0) / steps;
    }
    if (section === 'mlp') cells['MLP step'] = at(`${fmt(ms['webgpu']!)} ms`);
    log(
      `${name}: webgpu ${fmt(ms['webgpu']!)} ms/step, cpu ${fmt(ms['cpu']!)} ms/step (${fmt(ms['cpu']! / ms['webgpu']!)}x); ` +
        `first webgpu step ${fmt(first, 0)} ms (compiles ${compiled} pipelines); ${steps} steps`,
    );
  }

  // ---- matmul ----
  for (const n of on('matmul') ? [1024, 2048, 4096] : []) {
    if (quick && n > 1024) {
      log(`matmul ${n}: skipped on SwiftShader (--full runs it)`);
      if (n === 2048) cells['matmul 2048'] = 'skipped on SwiftShader';
      continue;
    }
    const a = torch.rand([n, n]).to('webgpu');
    const b = torch.rand([n, n]).to('webgpu');
    // Compile on a small product: one pipeline serves every shape.
    await torch.mm(a.narrow(0, 0, 64).narrow(1, 0, 64), b.narrow(0, 0, 64).narrow(1, 0, 64)).cpu_async();
    const reps = quick ? 1 : 5;
    const t0 = now();
    for (let i = 0; i < reps; i++) torch.mm(a, b);
    await sync();
    const s = (now() - t0) / 1000;
    const gflops = `${fmt((2 * n ** 3 * reps) / s / 1e9, 1)} GFLOP/s`;
    if (n <= 2048) cells[`matmul ${n}`] = at(gflops);
    log(`matmul ${n}x${n}x${n}: ${gflops} (${fmt((s * 1000) / reps, 1)} ms each, ${reps} reps)`);
  }
  if (on('variants')) await matmulVariants(aten, webgpu, options.variants, quick, log);

  // ---- add 1e7 against a WGSL copy kernel ----
  const N = 1e7;
  const reps = quick ? 3 : 20;
  if (on('add')) {
    const a = torch.rand([N]).to('webgpu');
    const b = torch.rand([N]).to('webgpu');
    await a
      .narrow(0, 0, 1024)
      .add(b.narrow(0, 0, 1024))
      .cpu_async(); // compile (the same pipeline)
    const t0 = now();
    for (let i = 0; i < reps; i++) a.add(b);
    await sync();
    const addS = (now() - t0) / 1000 / reps;
    const copyS = await copyKernelSeconds(webgpu, N, reps);
    cells['add 1e7'] = at(`${fmt((12 * N) / addS / 1e9, 1)} GB/s`);
    log(
      `add 1e7 float32: ${fmt((12 * N) / addS / 1e9, 1)} GB/s (${fmt(addS * 1000)} ms); WGSL vec4 copy of 1e7: ` +
        `${fmt((8 * N) / copyS / 1e9, 1)} GB/s (${fmt(copyS * 1000)} ms): add at ${fmt((100 * (12 * N)) / addS / ((8 * N) / copyS), 0)}% of the copy's bandwidth`,
    );
  }

  // ---- 1-element add latency ----
  if (on('latency')) {
    const one = torch.ones([1]).to('webgpu');
    await one.add(1).item_async();
    const encoded = quick ? 200 : 2000;
    const t0 = now();
    for (let i = 0; i < encoded; i++) one.add(1);
    await sync();
    const perDispatch = ((now() - t0) * 1000) / encoded;
    const roundTrips: number[] = [];
    for (let i = 0; i < (quick ? 20 : 100); i++) {
      const s = now();
      await one.add(1).item_async();
      roundTrips.push(now() - s);
    }
    cells['1-element add'] = at(`${fmt(median(roundTrips), 3)} ms`);
    log(
      `1-element add: ${fmt(perDispatch, 1)} µs per add encoded back to back; ${fmt(median(roundTrips), 3)} ms with the awaited read (median)`,
    );
  }
  return cells;
}

/** Seconds per dispatch of a vec4 copy of `n` float32 between two fresh buffers (the device's own queue). */
async function copyKernelSeconds(webgpu: WebGPU, n: number, reps: number): Promise<number> {
  await webgpu.synchronize();
  const device = webgpu.gpu_device();
  const usage = 0x0080 | 0x0008; // STORAGE | COPY_DST
  const src = device.createBuffer({ size: n * 4, usage });
  const dst = device.createBuffer({ size: n * 4, usage });
  const module = device.createShaderModule({
    code: [
      '@group(0) @binding(0) var<storage, read_write> dst: array<vec4f>;',
      '@group(0) @binding(1) var<storage, read> src: array<vec4f>;',
      '@compute @workgroup_size(256)',
      'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
      '  let i = gid.x + gid.y * nw.x * 256u;',
      '  if (i < arrayLength(&dst)) { dst[i] = src[i]; }',
      '}',
    ].join('\n'),
  });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: dst } },
      { binding: 1, resource: { buffer: src } },
    ],
  });
  const groups = Math.ceil(n / 4 / 256);
  const x = Math.min(groups, device.limits.maxComputeWorkgroupsPerDimension);
  const run = async (count: number): Promise<number> => {
    const t0 = performance.now();
    const encoder = device.createCommandEncoder();
    for (let i = 0; i < count; i++) {
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(x, Math.ceil(groups / x));
      pass.end();
    }
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    return (performance.now() - t0) / 1000;
  };
  await run(1);
  const s = (await run(reps)) / reps;
  src.destroy();
  dst.destroy();
  return s;
}
