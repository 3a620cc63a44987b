// The browser test's checks, run inside Chromium by tools/browser/run.ts. The test page imports the browser
// bundle (dist/bundle/index.js) and this module (transpiled by the server, not bundled), then calls
// runChecks with the bundle's namespace. Every check computes its expected values in plain JS here and
// compares with a tolerance; the WASM path and the JS path run the same checks, and then their results are
// compared with each other. No DOM types: this file is typechecked with the Node-only code
// (tsconfig.node.json), so page globals are read through `globalThis`.

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

/** One check's outcome, as the page reports it to run.ts. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

/** What the page leaves in `globalThis.__results` when it is done. */
export interface PageResults {
  readonly checks: CheckResult[];
  readonly userAgent: string;
}

/** How run.ts loaded the page: with cross-origin isolation headers (COOP/COEP) or without. */
export interface PageOptions {
  readonly isolated: boolean;
}

class CheckFailure extends Error {}

function assert(cond: boolean, message: string): asserts cond {
  if (!cond) throw new CheckFailure(message);
}

/** Float32 values from a fixed LCG in [lo, hi), so every run and both backends see the same inputs. */
function values(n: number, seed: number, lo = -2, hi = 2): number[] {
  let s = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(Math.fround(lo + ((hi - lo) * s) / 2 ** 32));
  }
  return out;
}

function rows(flat: readonly number[], cols: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += cols) out.push(flat.slice(i, i + cols));
  return out;
}

const flatValues = (t: Tensor): number[] => t.reshape(-1).tolist() as number[];

/** Largest |got - want| / max(1, |want|) over the elements; fails on length mismatch or non-finite values. */
function maxError(got: readonly number[], want: readonly number[]): number {
  assert(got.length === want.length, `length ${got.length}, expected ${want.length}`);
  let worst = 0;
  for (let i = 0; i < got.length; i++) {
    const g = got[i] as number;
    const w = want[i] as number;
    assert(Number.isFinite(g), `element ${i} is ${g}, expected ${w}`);
    worst = Math.max(worst, Math.abs(g - w) / Math.max(1, Math.abs(w)));
  }
  return worst;
}

function close(got: readonly number[], want: readonly number[], tol: number): string {
  const err = maxError(got, want);
  assert(err <= tol, `max relative error ${err.toExponential(2)} > ${tol.toExponential(0)}`);
  return `${got.length} values, max relative error ${err.toExponential(2)} <= ${tol.toExponential(0)}`;
}

/** Whether the backends agree: bit for bit, or within `tol` (relative, as maxError). */
function agree(wasm: readonly number[], js: readonly number[], tol: number): string {
  const err = maxError(wasm, js);
  assert(err <= tol, `max relative difference ${err.toExponential(2)} > ${tol.toExponential(0)}`);
  const a = new Uint32Array(new Float32Array(wasm).buffer);
  const b = new Uint32Array(new Float32Array(js).buffer);
  const differ = a.filter((bits, i) => bits !== b[i]).length;
  return differ === 0
    ? `${wasm.length} float32 values identical`
    : `${differ} of ${wasm.length} float32 values differ, max relative difference ${err.toExponential(2)} <= ${tol.toExponential(0)}`;
}

// ---- expected values in plain JS ----

function softmaxRows(x: readonly number[][]): number[][] {
  return x.map((row) => {
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((p, q) => p + q, 0);
    return e.map((v) => v / s);
  });
}

function matmulJs(a: readonly number[][], b: readonly number[][]): number[][] {
  const k = b.length;
  const n = (b[0] as number[]).length;
  return a.map((row) => {
    const out = new Array<number>(n).fill(0);
    for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) out[j] = (out[j] as number) + (row[p] as number) * (b[p] as number[])[j]!;
    return out;
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
function backendChecks(aten: Aten, backend: 'wasm' | 'js', check: (name: string, body: () => string) => void): BackendOutputs {
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
    assert(y.dtype === aten.ScalarType.Float, `dtype ${String(y.dtype)}`);
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

  check('page: torch.save / torch.load and safetensors round-trip in the browser (bytes, no fs)', () => {
    const t = aten.torch.arange(6, { dtype: 'float32' }).reshape(2, 3);
    const back = aten.torch.load(aten.torch.save({ t, view: t.t() })) as Record<string, typeof t>;
    assert(back.view?.storage === back.t?.storage, 'the view lost its shared storage');
    assert(JSON.stringify(back.view?.tolist()) === JSON.stringify(t.t().tolist()), `view values ${JSON.stringify(back.view?.tolist())}`);
    const st = aten.safetensors.load(aten.safetensors.save({ t }));
    assert(JSON.stringify(st.t?.tolist()) === JSON.stringify(t.tolist()), `safetensors values ${JSON.stringify(st.t?.tolist())}`);
    return 'a view and its base load over one storage; safetensors values equal';
  });

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

  // Isolated pages get worker threads over a shared memory; others one thread over an ordinary one.
  const cores = g.navigator?.hardwareConcurrency ?? 1;
  const threaded = options.isolated && cores > 1;
  check(`linear memory is ${threaded ? 'shared, with worker threads' : 'a plain ArrayBuffer, one thread'}`, () => {
    aten.setKernelBackend('wasm');
    const t = aten.torch.ones(4096, { dtype: 'float32' });
    const buffer = t.storage.buffer;
    assert(t.storage.handle !== 0, 'a [4096] float32 tensor is not in linear memory');
    const kind = Object.prototype.toString.call(buffer);
    assert(buffer !== null, 'no buffer');
    assert(kind === (threaded ? '[object SharedArrayBuffer]' : '[object ArrayBuffer]'), `storage buffer is ${kind}`);
    assert(t.sum().item() === 4096, `sum ${String(t.sum().item())}`);
    const threads = aten.torch.getNumThreads();
    assert(threads === (threaded ? cores : 1), `getNumThreads() is ${threads}, hardwareConcurrency ${cores}`);
    return `${kind} of ${buffer.byteLength} bytes, ${threads} thread(s)`;
  });

  if (threaded) {
    // Workers start when the page's thread returns to its event loop (Note [Worker threads over linear memory]).
    const sleep = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));
    for (let waited = 0; aten.parallelInfo().readyWorkers === 0 && waited < 10_000; waited += 50) await sleep(50);
    check('worker threads run kernels, and results do not depend on the thread count', () => {
      const { torch } = aten;
      const a = torch.randn([256, 256]);
      const b = torch.randn([256, 256]);
      torch.setNumThreads(1);
      const one = flatValues(torch.matmul(a, b));
      torch.setNumThreads(cores);
      const before = aten.parallelInfo();
      const many = flatValues(torch.matmul(a, b));
      const after = aten.parallelInfo();
      assert(after.readyWorkers >= 1, `${after.readyWorkers} of ${after.workers} workers ready`);
      assert(after.jobsOnWorkers > before.jobsOnWorkers, 'no job ran on a worker');
      return agree(one, many, 0) + `; ${after.jobsOnWorkers - before.jobsOnWorkers} job(s) on ${after.readyWorkers} worker(s)`;
    });
  }

  return { checks, userAgent: g.navigator?.userAgent ?? '' };
}
