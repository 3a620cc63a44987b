// bench/compare: the jax-js worker. A long-lived Node process run by bench/compare.ts that serves the workloads of
// protocol.ts on jax-js's `wasm` device (its `cpu` device is a JavaScript interpreter meant for debugging, tens to
// thousands of times slower here; in Node 20 there is no global Worker, so wasm runs on one thread). jax-js is lazy:
// each timed call waits for its results with blockUntilReady() (scalars: dataSync(); with --readback every result is
// read with dataSync()) and disposes them. Inputs are kept with `.ref` (jax-js functions take ownership of arguments).

import { readFileSync } from 'node:fs';
import { defaultDevice, grad, init, lax, nn, numpy as np, random, tree, valueAndGrad } from '@jax-js/jax';
import type { SetupOptions, Sizes, WorkloadId } from './protocol.js';
import { type Built, serve } from './worker_host.js';

type Arr = np.Array;

/** Waits for every array of `out` to exist (or reads it back), then drops it. */
async function finish(out: Arr | Arr[], readback: boolean): Promise<void> {
  for (const a of Array.isArray(out) ? out : [out]) {
    if (readback)
      a.dataSync(); // dataSync() also disposes
    else (await a.blockUntilReady()).dispose();
  }
}

function build(id: WorkloadId, s: Sizes, { readback }: SetupOptions): Built {
  let seed = 0;
  const randn = (shape: number[]): Arr => random.normal(random.key(++seed), shape);
  const pad: [number, number][] = [
    [1, 1],
    [1, 1],
  ];
  switch (id) {
    case 'add_out_1e7':
      return { unsupported: 'no out= in jax-js (arrays are immutable)' };
    case 'mul_1e6': {
      const [a, b] = [randn([s.mul]), randn([s.mul])];
      return { async: () => finish(np.multiply(a.ref, b.ref), readback) };
    }
    case 'exp_1e6': {
      const a = randn([s.mul]);
      return { async: () => finish(np.exp(a.ref), readback) };
    }
    case 'sum_1e7': {
      const a = randn([s.sum]);
      return { sync: () => np.sum(a.ref).dataSync() };
    }
    case 'softmax_1000': {
      const a = randn([s.softmax, s.softmax]);
      return { async: () => finish(nn.softmax(a.ref, 1), readback) };
    }
    case 'matmul_256': {
      const [a, b] = [randn([s.matmulSmall, s.matmulSmall]), randn([s.matmulSmall, s.matmulSmall])];
      return { async: () => finish(np.matmul(a.ref, b.ref), readback) };
    }
    case 'matmul_1024': {
      const [a, b] = [randn([s.matmul, s.matmul]), randn([s.matmul, s.matmul])];
      return { async: () => finish(np.matmul(a.ref, b.ref), readback) };
    }
    case 'conv2d_fwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const [x, f] = [randn([n, c, h, w]), randn([oc, c, k, k])];
      return { async: () => finish(lax.conv(x.ref, f.ref, [1, 1], pad), readback) };
    }
    case 'conv2d_fwd_bwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const [x, f] = [randn([n, c, h, w]), randn([oc, c, k, k])];
      const g = grad((xi: Arr, fi: Arr) => lax.conv(xi, fi, [1, 1], pad).sum(), { argnums: [0, 1] });
      return { note: 'grad(sum(lax.conv), argnums [0, 1])', async: () => finish(g(x.ref, f.ref) as Arr[], readback) };
    }
    case 'mlp_sgd_step':
      return mlp(s, randn);
    case 'add1': {
      const [a, b] = [np.array([1.5]), np.array([2.5])];
      return { note: 'a plain 1-element add, read back', sync: () => np.add(a.ref, b.ref).dataSync() };
    }
    case 'add1_grad': {
      const [a, b] = [np.array([1.5]), np.array([2.5])];
      return {
        note: 'no requires-grad flag in jax-js (grad is a function transformation): a plain 1-element add, read back',
        sync: () => np.add(a.ref, b.ref).dataSync(),
      };
    }
    default:
      return { unsupported: `no workload ${id} in this worker` };
  }
}

type Params = { w1: Arr; b1: Arr; w2: Arr; b2: Arr };

/** valueAndGrad of a cross-entropy loss over a params tree, then the functional SGD update p - 0.01·g. */
function mlp(s: Sizes, randn: (shape: number[]) => Arr): Built {
  const { batch, in: nIn, hidden, out: nOut } = s.mlp;
  const x = randn([batch, nIn]);
  const labels = nn.oneHot(
    np.array(
      Array.from({ length: batch }, (_, i) => (i * 7) % nOut),
      { dtype: np.int32 },
    ),
    nOut,
  );
  let params: Params = {
    w1: randn([nIn, hidden]).mul(0.05),
    b1: np.zeros([hidden]),
    w2: randn([hidden, nOut]).mul(0.05),
    b2: np.zeros([nOut]),
  };
  const loss = (p: Params, xi: Arr, yi: Arr): Arr => {
    const logits = np.matmul(nn.relu(np.matmul(xi, p.w1).add(p.b1)), p.w2).add(p.b2);
    return nn.logSoftmax(logits, 1).mul(yi).sum(1).mean().mul(-1);
  };
  const step = valueAndGrad(loss);
  return {
    note: 'valueAndGrad over a params tree + functional update p - 0.01·g; one-hot labels made outside the timed call',
    async: async () => {
      const [value, grads] = step(tree.ref(params), x.ref, labels.ref);
      params = tree.map((p: Arr, g: Arr) => p.sub(g.mul(0.01)), params, grads as Params) as Params;
      value.dataSync();
      await finish(tree.leaves(tree.ref(params)) as Arr[], false);
    },
  };
}

const devices = await init('wasm');
if (!devices.includes('wasm')) throw new Error(`jax-js: no wasm device (have ${devices.join(', ')})`);
defaultDevice('wasm');
const pkg = JSON.parse(readFileSync(new URL('../../node_modules/@jax-js/jax/package.json', import.meta.url), 'utf8')) as {
  version: string;
};
await serve(
  { version: pkg.version, device: 'wasm', threads: 'Worker' in globalThis ? 'web workers' : '1 (no global Worker in this Node)' },
  build,
);
