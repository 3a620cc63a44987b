// The browser test's checks, run inside Chromium by tools/browser/run.ts. The test page imports the browser
// bundle (dist/bundle/index.js) and this module (transpiled by the server, not bundled), then calls
// runChecks with the bundle's namespace. First the scenarios (tools/browser/scenarios.ts: the README's
// examples, a training step, a custom op, the dispatch trace) print the same lines as in Node, which run.ts
// passes in as `options.expected`. Then the kernel checks compute their expected values in plain JS here and
// compare with a tolerance; the WASM path and the JS path run the same checks, and then their results are
// compared with each other. Last, the thread checks (tools/browser/threads.ts). No DOM types: these files are
// typechecked with the Node-only code (tsconfig.node.json), so page globals are read through `globalThis`.

import { runScenarios } from './scenarios.js';
import { threadChecks } from './threads.js';
import {
  CheckFailure,
  agree,
  assert,
  close,
  flatValues,
  matmulJs,
  rows,
  values,
  type Check,
  type CheckResult,
  type PageOptions,
  type PageResults,
} from './util.js';

export type { PageResults } from './util.js';

type Aten = typeof import('../../src/index.js');

// ---- expected values in plain JS ----

function softmaxRows(x: readonly number[][]): number[][] {
  return x.map((row) => {
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((p, q) => p + q, 0);
    return e.map((v) => v / s);
  });
}

// ---- the checks ----

interface BackendOutputs {
  add: number[];
  exp: number[];
  sum: number[];
  softmax: number[];
  matmul: number[];
  grad: number[];
}

/** The checks of one kernel backend; records its outputs for the cross-backend comparison. */
function backendChecks(aten: Aten, backend: 'wasm' | 'js', check: Check): BackendOutputs {
  const { torch, cpuMemoryStats, getKernelBackend, setKernelBackend } = aten;
  const out: BackendOutputs = { add: [], exp: [], sum: [], softmax: [], matmul: [], grad: [] };
  const name = (what: string): string => `[${backend}] ${what}`;

  check(name('setKernelBackend selects the backend'), () => {
    setKernelBackend(backend);
    assert(getKernelBackend() === backend, `getKernelBackend() is '${getKernelBackend()}'`);
    return `getKernelBackend() === '${backend}'`;
  });

  const av = values(1000, 1);
  const bv = values(1000, 2);
  const before = cpuMemoryStats();
  const a = torch.tensor(av, { dtype: 'float32' });
  const b = torch.tensor(bv, { dtype: 'float32' });
  const after = cpuMemoryStats();

  check(name('storage placement (cpuMemoryStats)'), () => {
    assert(before !== null && after !== null, 'cpuMemoryStats() is null: the wasm allocator was never selected');
    const grew = after.allocatedBytes - before.allocatedBytes;
    const blocks = after.liveBlocks - before.liveBlocks;
    const handles = [a.storage.handle, b.storage.handle];
    if (backend === 'wasm') {
      // Two float32 tensors of 1000 elements (4000 bytes each, over SMALL_BYTES) are blocks of linear memory.
      assert(blocks >= 2 && grew >= 8000, `linear memory grew by ${grew} bytes in ${blocks} blocks, expected >= 8000 bytes in 2`);
      assert(
        after.memoryBytes >= after.reservedBytes && after.reservedBytes >= after.allocatedBytes,
        `inconsistent stats ${JSON.stringify(after)}`,
      );
      assert(handles.every((h) => h !== 0) && handles[0] !== handles[1], `storage handles ${handles.join(', ')}`);
      assert(a.storage.buffer === b.storage.buffer, 'the two storages are not in the same linear memory');
      return `+${grew} bytes in +${blocks} blocks of linear memory at ${handles.join(', ')} (${after.memoryBytes} bytes of memory)`;
    }
    assert(grew <= 0 && blocks <= 0, `the JS backend put ${grew} bytes in ${blocks} blocks of linear memory`);
    assert(
      handles.every((h) => h === 0),
      `storage handles ${handles.join(', ')}`,
    );
    assert(a.storage.buffer !== b.storage.buffer, 'JS-heap storages share one buffer');
    return 'no linear memory used: storage in the JS heap';
  });

  check(name('add of two float32 tensors of 1000 elements'), () => {
    const y = torch.add(a, b);
    assert(y.scalarType === aten.ScalarType.Float, `dtype ${String(y.scalarType)}`);
    out.add = flatValues(y);
    // float32 addition is exactly rounded: the plain-JS value is Math.fround of the exact sum.
    return close(
      out.add,
      av.map((v, i) => Math.fround(v + (bv[i] as number))),
      0,
    );
  });

  check(name('exp'), () => {
    out.exp = flatValues(torch.exp(a));
    return close(
      out.exp,
      av.map((v) => Math.exp(v)),
      1e-6,
    );
  });

  check(name('sum'), () => {
    const s = torch.sum(a).item() as number;
    out.sum = [s];
    const want = av.reduce((p, q) => p + q, 0);
    const err = Math.abs(s - want);
    assert(err <= 1e-3, `sum ${s}, expected ${want} (error ${err})`);
    return `sum ${s.toFixed(5)} vs ${want.toFixed(5)} (error ${err.toExponential(2)})`;
  });

  const xv = values(800, 3, -4, 4);
  check(name('softmax over dim 1 of [8, 100]'), () => {
    const x = torch.tensor(xv, { dtype: 'float32' }).reshape(8, 100);
    const y = torch.softmax(x, 1);
    out.softmax = flatValues(y);
    const rowSums = (torch.sum(y, 1).tolist() as number[]).map((v) => Math.abs(v - 1));
    assert(Math.max(...rowSums) <= 1e-5, `row sums off by ${Math.max(...rowSums)}`);
    return close(out.softmax, softmaxRows(rows(xv, 100)).flat(), 1e-6);
  });

  check(name('matmul [16, 32] @ [32, 24]'), () => {
    const pv = values(16 * 32, 4);
    const qv = values(32 * 24, 5);
    const y = torch.matmul(torch.tensor(pv, { dtype: 'float32' }).reshape(16, 32), torch.tensor(qv, { dtype: 'float32' }).reshape(32, 24));
    assert(y.shape.join(',') === '16,24', `shape [${y.shape.join(', ')}]`);
    out.matmul = flatValues(y);
    return close(out.matmul, matmulJs(rows(pv, 32), rows(qv, 24)).flat(), 1e-5);
  });

  check(name('autograd: backward of sum(softmax(x, 1) * c) + sum(x * x)'), () => {
    const cv = values(800, 6, 0, 1);
    const x = torch.tensor(xv, { dtype: 'float32', requiresGrad: true }).reshape(8, 100);
    const c = torch.tensor(cv, { dtype: 'float32' }).reshape(8, 100);
    const loss = torch.add(torch.sum(torch.mul(torch.softmax(x, 1), c)), torch.sum(torch.mul(x, x)));
    loss.backward();
    // x is a view (reshape) of the leaf; the leaf's gradient is the flat one.
    const leaf = x._base ?? x;
    const g = leaf.grad;
    assert(g !== null, 'no gradient on the leaf');
    out.grad = flatValues(g);
    // d/dx [sum_j s_j c_j] = s_i (c_i - sum_j s_j c_j) per row; d/dx sum x^2 = 2x.
    const s = softmaxRows(rows(xv, 100));
    const want = s.flatMap((row, r) => {
      const crow = cv.slice(r * 100, r * 100 + 100);
      const dot = row.reduce((p, v, j) => p + v * (crow[j] as number), 0);
      return row.map((v, j) => v * ((crow[j] as number) - dot) + 2 * (xv[r * 100 + j] as number));
    });
    return close(out.grad, want, 1e-5);
  });

  return out;
}

/** The scenarios on the default backend, each compared line for line with what Node printed. */
function scenarioChecks(aten: Aten, options: PageOptions, check: Check): void {
  aten.setKernelBackend('wasm');
  const got = runScenarios(aten);
  const names = Object.keys(options.expected);
  check('scenarios: the page ran the scenarios Node ran', () => {
    assert(names.length > 0, 'run.ts passed no expected output');
    assert(
      JSON.stringify(Object.keys(got)) === JSON.stringify(names),
      `page ran ${JSON.stringify(Object.keys(got))}, Node ${JSON.stringify(names)}`,
    );
    return `${names.length} scenarios`;
  });
  for (const name of names) {
    check(`scenario: ${name} prints what Node prints`, () => {
      const want = options.expected[name] ?? [];
      const lines = got[name] ?? [];
      assert(!want.some((l) => l.startsWith('threw ')), `the Node run threw: ${want.join(' | ')}`);
      const n = Math.max(want.length, lines.length);
      for (let i = 0; i < n; i++) {
        assert(lines[i] === want[i], `line ${i + 1}: page ${JSON.stringify(lines[i])}, Node ${JSON.stringify(want[i])}`);
      }
      return `${lines.length} lines equal, the last ${JSON.stringify(lines[lines.length - 1])}`;
    });
  }
  check('scenario: training step: the loss decreases at every SGD step in the page', () => {
    const lines = Object.entries(got).find(([name]) => name.startsWith('training step'))?.[1] ?? [];
    const losses = lines.filter((l) => l.startsWith('step ')).map((l) => Number(l.split('loss ')[1]));
    assert(losses.length >= 2, `losses ${JSON.stringify(losses)}`);
    assert(
      losses.every((l, i) => i === 0 || l < (losses[i - 1] as number)),
      `losses ${losses.join(', ')}`,
    );
    return `losses ${losses.map((l) => l.toFixed(4)).join(' > ')}`;
  });
}

/** Runs every check; never throws (a throwing check is a failed check). */
export async function runChecks(aten: Aten, options: PageOptions): Promise<PageResults> {
  const checks: CheckResult[] = [];
  const check = (name: string, body: () => string): void => {
    try {
      checks.push({ name, ok: true, message: body() });
    } catch (e) {
      const message = e instanceof CheckFailure ? e.message : e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e);
      checks.push({ name, ok: false, message });
    }
  };
  const g = globalThis as { crossOriginIsolated?: boolean; navigator?: { userAgent: string; hardwareConcurrency?: number } } & Record<
    string,
    unknown
  >;

  check('page: no Node globals (process, require, Buffer)', () => {
    const present = ['process', 'require', 'Buffer'].filter((k) => g[k] !== undefined);
    assert(present.length === 0, `present: ${present.join(', ')}`);
    return 'none present; the bundle loaded without them';
  });

  check(`page: crossOriginIsolated is ${options.isolated}`, () => {
    assert(g.crossOriginIsolated === options.isolated, `crossOriginIsolated is ${String(g.crossOriginIsolated)}`);
    // Without isolation Chromium hides SharedArrayBuffer: the default runtime must not need it.
    const sab = typeof g['SharedArrayBuffer'];
    assert(options.isolated || sab === 'undefined', `SharedArrayBuffer is ${sab} without isolation`);
    return `crossOriginIsolated ${String(g.crossOriginIsolated)}, SharedArrayBuffer ${sab}`;
  });

  check('page: the default kernel backend is wasm (SIMD detected)', () => {
    const backend = aten.getKernelBackend();
    assert(backend === 'wasm', `getKernelBackend() is '${backend}'`);
    return "getKernelBackend() === 'wasm'";
  });

  check('page: every torch.nn module class keeps its name in the bundle (a module repr prints it)', () => {
    // See Note [Class names in the bundle]: a class that names itself in its body is renamed `_Name` by esbuild.
    const nn = aten.torch.nn as unknown as Record<string, unknown>;
    const classes = Object.entries(nn).filter(
      (e): e is [string, { name: string; prototype: unknown }] =>
        typeof e[1] === 'function' && (e[1] === aten.torch.nn.Module || e[1].prototype instanceof aten.torch.nn.Module),
    );
    const renamed = classes.filter(([key, cls]) => cls.name !== key).map(([key, cls]) => `${key} is ${cls.name}`);
    assert(classes.length > 40 && renamed.length === 0, `${classes.length} classes; renamed: ${renamed.join(', ')}`);
    const seq = new aten.torch.nn.Sequential(new aten.torch.nn.ReLU(), new aten.torch.nn.ModuleList([new aten.torch.nn.Flatten()]));
    const repr = String(seq.slice(0));
    assert(repr.startsWith('Sequential(\n  (0): ReLU()\n  (1): ModuleList('), `repr ${JSON.stringify(repr)}`);
    return `${classes.length} classes named as exported; String(seq.slice(0)) starts 'Sequential('`;
  });

  check('page: torch.save / torch.load and safetensors round-trip in the browser (bytes, no fs)', () => {
    const t = aten.torch.arange(6, { dtype: 'float32' }).reshape(2, 3);
    const back = aten.torch.load(aten.torch.save({ t, view: t.t() })) as Record<string, typeof t>;
    assert(back.view?.storage === back.t?.storage, 'the view lost its shared storage');
    assert(JSON.stringify(back.view?.tolist()) === JSON.stringify(t.t().tolist()), `view values ${JSON.stringify(back.view?.tolist())}`);
    const st = aten.safetensors.load(aten.safetensors.save({ t }));
    assert(JSON.stringify(st.t?.tolist()) === JSON.stringify(t.tolist()), `safetensors values ${JSON.stringify(st.t?.tolist())}`);
    return 'a view and its base load over one storage; safetensors values equal';
  });

  scenarioChecks(aten, options, check);

  const wasm = backendChecks(aten, 'wasm', check);
  const js = backendChecks(aten, 'js', check);
  // The SIMD kernels are bit for bit their JS twins over linear memory (test/wasm/kernels.test.ts), but the
  // 'js' backend runs the kernels' own JS loops over JS-heap storage, whose exp and summation order differ
  // in the last bits. add is exactly rounded on both; the rest agree to float32 rounding.
  check('wasm and js agree: add (bit for bit)', () => agree(wasm.add, js.add, 0));
  // matmul: the packed gemm sums in 256-deep slices, the JS loop in one run, so they differ by rounding.
  for (const key of ['exp', 'sum', 'softmax', 'matmul', 'grad'] as const) {
    check(`wasm and js agree: ${key}`, () => agree(wasm[key], js[key], key === 'matmul' ? 1e-5 : 1e-6));
  }

  await threadChecks(aten, options, check);

  return { checks, userAgent: g.navigator?.userAgent ?? '' };
}
