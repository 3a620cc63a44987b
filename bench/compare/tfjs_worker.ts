// bench/compare: the TensorFlow.js worker (tfjs-core + the WASM backend, XNNPACK inside). A long-lived Node process run
// by bench/compare.ts that serves the workloads of protocol.ts. The WASM backend's kernels run synchronously when an
// op is called, so a result exists when the call returns; every result is disposed in the timed call (no leak: setup
// checks the tensor count), scalars are read with dataSync(), and with --readback every result is.
//
// Gradients: tfjs-core's Node bundle registers no gradient (the union package @tensorflow/tfjs does, from
// tfjs-core/dist/register_all_gradients.js, an ES module tree Node cannot load as it is); esbuild bundles that file once
// into the temporary folder and the worker imports it. Its copy of the op code shares the engine and the registries
// (tfjs keeps them on globalThis, for exactly this case of several copies).

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { getThreadsCount, version_wasm } from '@tensorflow/tfjs-backend-wasm';
import type { SetupOptions, Sizes, WorkloadId } from './protocol.js';
import { type Built, serve } from './worker_host.js';

/** The timed call: `op()` inside tidy, its result kept only as long as the read-back (if any) needs it. */
function call(op: () => tf.Tensor | tf.Tensor[], readback: boolean): () => void {
  return () => {
    tf.tidy(() => {
      const r = op();
      if (readback) for (const t of Array.isArray(r) ? r : [r]) t.dataSync();
    });
  };
}

function build(id: WorkloadId, s: Sizes, { readback }: SetupOptions): Built {
  let seed = 0;
  const randn = (shape: number[]): tf.Tensor => tf.randomNormal(shape, 0, 1, 'float32', ++seed);
  switch (id) {
    case 'add_out_1e7':
      return { unsupported: 'no out= in tfjs (tensors are immutable)' };
    case 'mul_1e6': {
      const [a, b] = [randn([s.mul]), randn([s.mul])];
      return { sync: call(() => tf.mul(a, b), readback) };
    }
    case 'exp_1e6': {
      const a = randn([s.mul]);
      return { sync: call(() => tf.exp(a), readback) };
    }
    case 'sum_1e7': {
      const a = randn([s.sum]);
      return { sync: call(() => tf.sum(a), true) };
    }
    case 'softmax_1000': {
      const a = randn([s.softmax, s.softmax]);
      return { sync: call(() => tf.softmax(a), readback) };
    }
    case 'matmul_256': {
      const [a, b] = [randn([s.matmulSmall, s.matmulSmall]), randn([s.matmulSmall, s.matmulSmall])];
      return { sync: call(() => tf.matMul(a, b), readback) };
    }
    case 'matmul_1024': {
      const [a, b] = [randn([s.matmul, s.matmul]), randn([s.matmul, s.matmul])];
      return { sync: call(() => tf.matMul(a, b), readback) };
    }
    case 'conv2d_fwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const [x, f] = [randn([n, h, w, c]) as tf.Tensor4D, randn([k, k, c, oc]) as tf.Tensor4D];
      return { note: 'NHWC layout (tfjs-wasm conv2d has no NCHW)', sync: call(() => tf.conv2d(x, f, 1, 1), readback) };
    }
    case 'conv2d_fwd_bwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const [x, f] = [randn([n, h, w, c]) as tf.Tensor4D, randn([k, k, c, oc]) as tf.Tensor4D];
      const grads = tf.grads((xi: tf.Tensor, fi: tf.Tensor) => tf.sum(tf.conv2d(xi as tf.Tensor4D, fi as tf.Tensor4D, 1, 1)));
      return { note: 'tf.grads of sum(conv2d), NHWC', sync: call(() => grads([x, f]), readback) };
    }
    case 'mlp_sgd_step':
      return mlp(s, randn);
    case 'add1': {
      const [a, b] = [tf.tensor1d([1.5]), tf.tensor1d([2.5])];
      return { note: 'read back', sync: call(() => tf.add(a, b), true) };
    }
    case 'add1_grad': {
      const [a, b] = [tf.tensor1d([1.5]), tf.tensor1d([2.5])];
      return {
        note: 'no requires-grad flag in tfjs (gradients are taken by tf.grads): a plain 1-element add, read back',
        sync: call(() => tf.add(a, b), true),
      };
    }
    default:
      return { unsupported: `no workload ${id} in this worker` };
  }
}

/** tf.variable parameters, tf.train.sgd(0.01).minimize of softmaxCrossEntropy (mean over the batch). */
function mlp(s: Sizes, randn: (shape: number[]) => tf.Tensor): Built {
  const { batch, in: nIn, hidden, out: nOut } = s.mlp;
  const x = randn([batch, nIn]) as tf.Tensor2D;
  const labels = tf.oneHot(
    tf.tensor1d(
      Array.from({ length: batch }, (_, i) => (i * 7) % nOut),
      'int32',
    ),
    nOut,
  );
  const w1 = tf.variable(tf.mul(randn([nIn, hidden]), 0.05) as tf.Tensor2D);
  const b1 = tf.variable(tf.zeros([hidden]));
  const w2 = tf.variable(tf.mul(randn([hidden, nOut]), 0.05) as tf.Tensor2D);
  const b2 = tf.variable(tf.zeros([nOut]));
  const sgd = tf.train.sgd(0.01);
  const loss = (): tf.Scalar =>
    tf.losses.softmaxCrossEntropy(labels, tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(x, w1), b1)) as tf.Tensor2D, w2), b2)) as tf.Scalar;
  return {
    note: 'tf.variable + tf.train.sgd(0.01).minimize(softmaxCrossEntropy); one-hot labels made outside the timed call',
    sync: () => {
      const cost = sgd.minimize(loss, true);
      cost?.dataSync();
      cost?.dispose();
    },
  };
}

/** Runs the call a few times and fails the workload if tensors accumulate. */
function leakChecked(built: Built): Built {
  if (!('sync' in built)) return built;
  built.sync(); // the first call may keep tensors for good (an optimizer's learning-rate scalar)
  const before = tf.memory().numTensors;
  for (let i = 0; i < 3; i++) built.sync();
  const grown = tf.memory().numTensors - before;
  return grown > 0 ? { fails: `leaks ${grown} tensors over 3 calls` } : built;
}

/** Registers tfjs-core's gradients (see the header); undefined, or why not. */
async function registerGradients(): Promise<string | undefined> {
  try {
    const file = join(tmpdir(), `aten-ts-bench-tfjs-gradients-${tf.version_core}.mjs`);
    if (!existsSync(file)) {
      const entry = createRequire(import.meta.url).resolve('@tensorflow/tfjs-core/dist/register_all_gradients.js');
      const { build } = await import('esbuild');
      const out = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' });
      writeFileSync(`${file}.${process.pid}`, out.outputFiles[0]!.text);
      renameSync(`${file}.${process.pid}`, file);
    }
    await import(pathToFileURL(file).href);
    return undefined;
  } catch (e) {
    return `tfjs-core's gradients could not be registered: ${(e as Error).message.split('\n')[0]}`;
  }
}

const gradientsMissing = await registerGradients();
await tf.setBackend('wasm');
await tf.ready();
const wasmPkg = JSON.parse(readFileSync(new URL('../../node_modules/@tensorflow/tfjs-backend-wasm/package.json', import.meta.url), 'utf8'));
await serve(
  {
    version: `tfjs-core ${tf.version_core}, tfjs-backend-wasm ${version_wasm ?? (wasmPkg as { version: string }).version}`,
    backend: tf.getBackend(),
    threads: String(getThreadsCount()),
    simd: String(tf.env().getBool('WASM_HAS_SIMD_SUPPORT')),
  },
  (id, sizes, options) =>
    gradientsMissing !== undefined && (id === 'conv2d_fwd_bwd' || id === 'mlp_sgd_step')
      ? { fails: gradientsMissing }
      : leakChecked(build(id, sizes, options)),
);
