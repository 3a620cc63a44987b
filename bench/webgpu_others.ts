// The TensorFlow.js (4.22.0, @tensorflow/tfjs-backend-webgpu) and jax-js (@jax-js/jax 0.1.25, its `webgpu` device)
// columns of `npm run bench:webgpu`, on the same page as aten-ts's webgpu device (bench/webgpu.ts bundles both
// libraries from node_modules and serves this file transpiled). For each: matmul 1024 / 2048 GFLOP/s, a 1e7-element
// add in GB/s, the 1-element add latency and the MLP 784-128-10 training step (batch 64, SGD with momentum 0.9, lr
// 0.01, mean cross-entropy: the aten-ts row's model), each cell with the adapter that library's device reports (a
// library asks navigator.gpu for its own adapter: on a machine with two, they may differ). Timing as the aten-ts
// suite: work encoded back to back, one wait at the end (tfjs: read one element of the last result, which waits for
// its queue; jax-js: blockUntilReady on every result, since jax-js submits its pending kernels only when a result is
// awaited). No Node API and no value imports (the page hands in the namespaces).

/** One library's figures, filled as they are measured (a failure keeps the earlier ones): keys are bench/webgpu_suite.ts's CELLS. */
export type Cells = Record<string, string>;

export interface OtherOptions {
  readonly quick: boolean;
  readonly log: (line: string) => void;
}

const now = (): number => performance.now();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number, digits = 2): string => x.toFixed(digits);
const randoms = (n: number, seed: number): Float32Array => {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32;
  }
  return out;
};
// Fixed inputs of the MLP step (shared by both libraries): x [64, 784], labels in [0, 10), and the weights.
const B = 64;
const labels = (): Int32Array => Int32Array.from({ length: B }, (_, i) => (i * 7 + 3) % 10);

interface AdapterLike {
  vendor?: string;
  architecture?: string;
  description?: string;
}
const describe = (info: AdapterLike | undefined): string =>
  info === undefined ? 'unknown adapter' : `${info.vendor ?? ''}/${info.architecture ?? ''}`;

/* eslint-disable @typescript-eslint/no-explicit-any -- both libraries come in as untyped page modules */

/** TensorFlow.js on its WebGPU backend: `tf` is tfjs-core with tfjs-backend-webgpu registered. */
export async function runTfjs(tf: any, { quick, log }: OtherOptions, cells: Cells): Promise<void> {
  if (!(await tf.setBackend('webgpu'))) throw new Error('tf.setBackend("webgpu") failed');
  await tf.ready();
  const backend = tf.backend();
  const adapter = describe((backend.device as { adapterInfo?: AdapterLike }).adapterInfo ?? backend.adapterInfo);
  log(`TensorFlow.js ${tf.version_core} webgpu backend, adapter: ${adapter}`);
  const at = (v: string): string => `${v} [${adapter}]`;
  const settle = async (t: any): Promise<void> => {
    // Reading one element waits for the whole queue before it.
    const one = tf.slice(tf.reshape(t, [-1]), [0], [1]);
    await one.data();
    one.dispose();
  };

  for (const n of [1024, 2048]) {
    if (quick && n > 1024) {
      cells[`matmul ${n}`] = 'skipped on SwiftShader';
      continue;
    }
    const a = tf.tensor2d(randoms(n * n, 1), [n, n]);
    const b = tf.tensor2d(randoms(n * n, 2), [n, n]);
    const warm = tf.matMul(a, b);
    await settle(warm);
    warm.dispose();
    const reps = quick ? 1 : 5;
    const t0 = now();
    let c: any = null;
    for (let i = 0; i < reps; i++) {
      c?.dispose();
      c = tf.matMul(a, b);
    }
    await settle(c);
    const s = (now() - t0) / 1000;
    c.dispose();
    a.dispose();
    b.dispose();
    cells[`matmul ${n}`] = at(`${fmt((2 * n ** 3 * reps) / s / 1e9, 1)} GFLOP/s`);
    log(`  tfjs matmul ${n}x${n}x${n}: ${cells[`matmul ${n}`]} (${fmt((s * 1000) / reps, 1)} ms each, ${reps} reps)`);
  }

  {
    const N = 1e7;
    const reps = quick ? 3 : 20;
    const a = tf.tensor1d(randoms(N, 3));
    const b = tf.tensor1d(randoms(N, 4));
    const warm = tf.add(a, b);
    await settle(warm);
    warm.dispose();
    const t0 = now();
    let c: any = null;
    for (let i = 0; i < reps; i++) {
      c?.dispose();
      c = tf.add(a, b);
    }
    await settle(c);
    const s = (now() - t0) / 1000 / reps;
    c.dispose();
    a.dispose();
    b.dispose();
    cells['add 1e7'] = at(`${fmt((12 * N) / s / 1e9, 1)} GB/s`);
    log(`  tfjs add 1e7 float32: ${cells['add 1e7']} (${fmt(s * 1000)} ms; the settle reads one element)`);
  }

  // tfjs runs an op whose inputs are small on its CPU backend (WEBGPU_CPU_FORWARD, on by default): the first
  // figure is what a user gets, the second the GPU round trip with forwarding off.
  for (const forward of [true, false]) {
    tf.env().set('WEBGPU_CPU_FORWARD', forward);
    const one = tf.ones([1]);
    const trips: number[] = [];
    for (let i = 0; i < (quick ? 20 : 100) + 1; i++) {
      const t0 = now();
      const r = tf.add(one, 1);
      await r.data();
      r.dispose();
      if (i > 0) trips.push(now() - t0);
    }
    one.dispose();
    const cell = at(`${fmt(median(trips), 3)} ms${forward ? ' (CPU-forwarded)' : ''}`);
    if (forward) cells['1-element add'] = cell;
    log(`  tfjs 1-element add with the awaited read, WEBGPU_CPU_FORWARD ${forward}: ${cell} (median)`);
  }
  tf.env().set('WEBGPU_CPU_FORWARD', true);

  {
    // tfjs-core alone has no chained methods (t.sub): functions throughout.
    const w1 = tf.variable(tf.mul(tf.sub(tf.tensor2d(randoms(784 * 128, 5), [784, 128]), 0.5), 0.07));
    const b1 = tf.variable(tf.zeros([128]));
    const w2 = tf.variable(tf.mul(tf.sub(tf.tensor2d(randoms(128 * 10, 6), [128, 10]), 0.5), 0.18));
    const b2 = tf.variable(tf.zeros([10]));
    const x = tf.tensor2d(randoms(B * 784, 7), [B, 784]);
    const y = tf.oneHot(tf.tensor1d(labels(), 'int32'), 10);
    const opt = tf.train.momentum(0.01, 0.9);
    const step = (): any => {
      const { value, grads } = tf.variableGrads(() =>
        tf.losses.softmaxCrossEntropy(y, tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(x, w1), b1)), w2), b2)),
      );
      opt.applyGradients(grads);
      tf.dispose(grads);
      return value;
    };
    let t0 = now();
    const first = step();
    await first.data();
    first.dispose();
    const firstMs = now() - t0;
    const steps = quick ? 3 : 20;
    t0 = now();
    let loss: any = null;
    for (let i = 0; i < steps; i++) {
      loss?.dispose();
      loss = step();
    }
    const value = (await loss.data())[0] as number;
    const ms = (now() - t0) / steps;
    loss.dispose();
    cells['MLP step'] = at(`${fmt(ms)} ms`);
    log(
      `  tfjs MLP 784-128-10 (batch 64, momentum SGD via tf.variableGrads): ${cells['MLP step']}/step; first step ` +
        `${fmt(firstMs, 0)} ms; ${steps} steps; last loss ${fmt(value, 4)}`,
    );
    tf.dispose([w1, b1, w2, b2, x, y]);
  }
}

/** jax-js on its `webgpu` device (`init('webgpu')`, `defaultDevice('webgpu')`). */
export async function runJax(jax: any, { quick, log }: OtherOptions, cells: Cells): Promise<void> {
  const devices: string[] = await jax.init('webgpu');
  if (!devices.includes('webgpu')) throw new Error(`jax-js init('webgpu') gave [${devices.join(', ')}]`);
  jax.defaultDevice('webgpu');
  const np = jax.numpy;
  const adapter = describe((jax.getWebGPUDevice() as { adapterInfo?: AdapterLike }).adapterInfo);
  log(`jax-js webgpu device, adapter: ${adapter}`);
  const at = (v: string): string => `${v} [${adapter}]`;
  const array = (data: Float32Array, shape: number[]): any => np.array(data).reshape(shape);
  /** Runs `make()` `reps` times and waits for every result (jax-js submits pending kernels when awaited). */
  const timed = async (make: () => any, reps: number, chunk: number): Promise<number> => {
    const t0 = now();
    for (let done = 0; done < reps;) {
      const outs: any[] = [];
      for (let i = 0; i < chunk && done < reps; i++, done++) outs.push(make());
      await jax.blockUntilReady(outs);
      for (const o of outs) o.dispose();
    }
    return (now() - t0) / 1000;
  };

  for (const n of [1024, 2048]) {
    if (quick && n > 1024) {
      cells[`matmul ${n}`] = 'skipped on SwiftShader';
      continue;
    }
    const a = array(randoms(n * n, 1), [n, n]);
    const b = array(randoms(n * n, 2), [n, n]);
    await timed(() => np.matmul(a.ref, b.ref), 1, 1);
    const reps = quick ? 1 : 5;
    const s = await timed(() => np.matmul(a.ref, b.ref), reps, reps);
    a.dispose();
    b.dispose();
    cells[`matmul ${n}`] = at(`${fmt((2 * n ** 3 * reps) / s / 1e9, 1)} GFLOP/s`);
    log(`  jax-js matmul ${n}x${n}x${n}: ${cells[`matmul ${n}`]} (${fmt((s * 1000) / reps, 1)} ms each, ${reps} reps)`);
  }

  {
    const N = 1e7;
    const reps = quick ? 3 : 20;
    const a = array(randoms(N, 3), [N]);
    const b = array(randoms(N, 4), [N]);
    await timed(() => np.add(a.ref, b.ref), 1, 1);
    const s = (await timed(() => np.add(a.ref, b.ref), reps, 5)) / reps;
    a.dispose();
    b.dispose();
    cells['add 1e7'] = at(`${fmt((12 * N) / s / 1e9, 1)} GB/s`);
    log(`  jax-js add 1e7 float32: ${cells['add 1e7']} (${fmt(s * 1000)} ms; 5 results in flight at most)`);
  }

  // jax-js keeps an array of fewer than 128 elements as a host-side constant expression: the 1-element add and its
  // read never reach the GPU (the cell says so). A 1024-element add is its smallest round trip through the device.
  for (const size of [1, 1024]) {
    const x = array(randoms(size, 8), [size]);
    const trips: number[] = [];
    for (let i = 0; i < (quick ? 20 : 100) + 1; i++) {
      const t0 = now();
      await np.add(x.ref, 1).data();
      if (i > 0) trips.push(now() - t0);
    }
    x.dispose();
    const cell = at(`${fmt(median(trips), 3)} ms${size === 1 ? ' (host constant)' : ''}`);
    if (size === 1) cells['1-element add'] = cell;
    log(`  jax-js ${size}-element add with the awaited read: ${cell} (median)`);
  }

  {
    type Params = { w1: any; b1: any; w2: any; b2: any };
    let params: Params = {
      w1: array(randoms(784 * 128, 5), [784, 128])
        .sub(0.5)
        .mul(0.07),
      b1: np.zeros([128]),
      w2: array(randoms(128 * 10, 6), [128, 10])
        .sub(0.5)
        .mul(0.18),
      b2: np.zeros([10]),
    };
    let velocity: Params = { w1: np.zeros([784, 128]), b1: np.zeros([128]), w2: np.zeros([128, 10]), b2: np.zeros([10]) };
    const x = array(randoms(B * 784, 7), [B, 784]);
    const y = jax.nn.oneHot(np.array(labels(), { dtype: np.int32 }), 10);
    const loss = (p: Params, xs: any, ys: any): any => {
      const h = jax.nn.relu(np.matmul(xs, p.w1).add(p.b1));
      const logits = np.matmul(h, p.w2).add(p.b2);
      return jax.nn
        .logSoftmax(logits, -1)
        .mul(ys)
        .sum()
        .mul(-1 / B);
    };
    const grad = jax.jit(jax.valueAndGrad(loss));
    const step = (): any => {
      const [value, g] = grad(jax.tree.ref(params), x.ref, y.ref) as [any, Params];
      const next = {} as Params;
      const vel = {} as Params;
      for (const k of ['w1', 'b1', 'w2', 'b2'] as const) {
        vel[k] = velocity[k].mul(0.9).add(g[k]);
        next[k] = params[k].sub(vel[k].ref.mul(0.01));
      }
      params = next;
      velocity = vel;
      return value;
    };
    let t0 = now();
    await step().data();
    const firstMs = now() - t0;
    const steps = quick ? 3 : 20;
    t0 = now();
    const losses: any[] = [];
    for (let i = 0; i < steps; i++) losses.push(step());
    await jax.blockUntilReady([losses, params]);
    const last = (await losses.pop().data())[0] as number;
    const ms = (now() - t0) / steps;
    for (const l of losses) l.dispose();
    cells['MLP step'] = at(`${fmt(ms)} ms`);
    log(
      `  jax-js MLP 784-128-10 (batch 64, momentum SGD, jit(valueAndGrad)): ${cells['MLP step']}/step; first step ` +
        `${fmt(firstMs, 0)} ms; ${steps} steps; last loss ${fmt(last, 4)}`,
    );
    jax.tree.dispose([params, velocity, x, y]);
  }
}
