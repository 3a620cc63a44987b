// The webgpu device's OpInfo subset in Chromium on SwiftShader (imported by webgpu.ts): every operator the device
// registers at PrivateUse1 (enumerated from the dispatcher, never hand-listed) is reached by replaying PyTorch's
// OpInfo samples (test/golden/opinfo/*.json.gz; run.ts serves their float32 / float16 / int64 / bool value samples, at most
// SAMPLES_PER_DTYPE per entry and dtype, as /webgpu_opinfo.json) on `webgpu` and on `cpu` in the same page:
//   values  result dtypes, shapes and values equal to the CPU device's (float32 within VALUE_TOL, float16 within
//           HALF_TOL, others exact)
//   meta    the same call on meta tensors gives the device result's dtype, shape and strides
//   grads   float32 samples: torch.autograd.grad of every float32 result with respect to every float32 tensor
//           argument, fixed cotangents, on both devices, within GRAD_TOL (the fixtures hold float64 gradients only)
// A sample the device refuses (its missing-kernel NotImplementedError, a "webgpu: ... not supported" error or a
// synchronous read) is skipped and counted; any other difference fails. The operators the device registers that
// no sample reached are listed in the check's message (and fail nothing). The decoding follows
// test/opinfo/harness.ts (its encoding: `$t` tensors with values or storage/strides/offset, `$f`, `$dtype`,
// `$device`, `$memory_format`) over the namespace the page hands in: the harness reads the fixtures with
// node:fs and imports the core by path, neither of which a page can. No DOM types and no value imports.

import { CheckFailure, assert, values as lcg } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');
type Num = number | boolean | string;
type Json = Num | null | Json[] | { [k: string]: Json };

/** One value sample as run.ts serves it (a subset of test/opinfo/harness.ts's Sample). */
export interface OpinfoSample {
  dtype: string;
  index: number;
  input: Json;
  args: Json[];
  kwargs: Record<string, Json>;
  seed?: number;
  /** PyTorch's result is uninitialised memory (empty, empty_like): dtype and shape only. */
  no_values?: boolean;
  /** PyTorch's result (float16 samples only): `{ $t, shape, values }` for a tensor. */
  result?: Json;
}
export interface OpinfoEntry {
  key: string;
  name: string;
  call: string;
  samples: OpinfoSample[];
}
/** Samples per OpInfo entry and dtype that run.ts serves (the browser time cap: about a minute on SwiftShader). */
export const SAMPLES_PER_DTYPE = 3;
/** Float32 values: the device's sums run in another order than the CPU's (trees, tiles). */
const VALUE_TOL = { rtol: 1e-4, atol: 1e-5 };
/** float16 results: two float16 rounding steps (the device rounds f32 results once; exp and the like differ in f32). */
const HALF_TOL = { rtol: 2e-3, atol: 1e-5 };
const GRAD_TOL = { rtol: 1e-4, atol: 1e-4 };
/**
 * float16 tolerances of entries whose PyTorch OpInfo skips `test_compare_cpu` (a device against the CPU). SDPA:
 * PyTorch's own float16 checks (test_transformers.py) measure against a float64 reference; on OpInfo's float16
 * sample 0 (outputs up to 2.1 in magnitude) the device's math path (float16 operators, each rounded once) is
 * within 3.7e-3 of float64 and PyTorch's CPU flash kernel within 1.9e-3, so the device is held to PyTorch's
 * result within their sum, 6e-3 (the CPU device's math path is 4.0e-2 away: aten-ts's CPU flash kernel takes no
 * float16 yet).
 */
const HALF_TOL_OF: Record<string, { rtol: number; atol: number }> = {
  'nn.functional.scaled_dot_product_attention': { rtol: 0, atol: 6e-3 },
};
/** A sample drawing random numbers through a probability argument (SDPA's dropout_p > 0). */
function randomSample(s: OpinfoSample): boolean {
  const p = (s.kwargs as Record<string, unknown> | undefined)?.['dropout_p'];
  return (typeof p === 'number' ? p : ((p as { $f?: number } | undefined)?.$f ?? 0)) > 0;
}
/** OpInfo entries drawing random numbers (the harness's seeded adapters): the device's generator (Philox) is not the CPU's. */
const RANDOM =
  /^(multinomial|cauchy|exponential|geometric|log_normal|uniform|normal|bernoulli|rand|nn\.functional\.(dropout|alpha_dropout|feature_alpha_dropout|rrelu))/;

type Device = 'cpu' | 'webgpu' | 'meta';

/** The page's samples: run.ts serves them as /webgpu_opinfo.json (tools/webgpu-node/run.ts reads them from the fixtures). */
async function fetchSamples(): Promise<OpinfoEntry[]> {
  const response = await fetch('/webgpu_opinfo.json');
  assert(response.ok, `GET /webgpu_opinfo.json: ${response.status}`);
  return (await response.json()) as OpinfoEntry[];
}

export async function runOpinfoChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
  load: () => Promise<OpinfoEntry[]> = fetchSamples,
): Promise<void> {
  const { torch } = aten;
  const T = torch as unknown as Record<string, unknown>;
  const F = torch.nn.functional as unknown as Record<string, unknown>;
  type Fn = (...a: unknown[]) => unknown;

  const decodeNum = (v: Num): number | boolean =>
    v === 'nan' ? Number.NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : (v as number | boolean);
  const dtypeOf = (name: string): unknown => {
    const d = T[name];
    if (d === undefined) throw new Error(`aten-ts has no dtype torch.${name}`);
    return d;
  };
  const contiguous = (shape: number[]): number[] => {
    const st: number[] = [];
    let acc = 1;
    for (let i = shape.length - 1; i >= 0; i--) {
      st[i] = acc;
      acc *= Math.max(shape[i]!, 1);
    }
    return st;
  };
  const build = (v: Json, device: Device): unknown => {
    if (Array.isArray(v)) return v.map((x) => build(x, device));
    if (typeof v !== 'object' || v === null) return v;
    if ('$t' in v) {
      const s = v as { $t: string; shape: number[]; values?: Num[]; strides?: number[]; offset?: number; storage?: Num[] };
      const dtype = dtypeOf(s.$t);
      if (device === 'meta') return torch.empty_strided(s.shape, s.strides ?? contiguous(s.shape), { dtype, device: 'meta' } as never);
      if (s.$t.startsWith('complex')) throw new Error('complex input');
      const flat = torch.tensor((s.storage ?? s.values ?? []).map(decodeNum) as number[], { dtype } as never);
      const base = device === 'webgpu' ? flat.to('webgpu') : flat;
      return s.storage !== undefined ? base.as_strided(s.shape, s.strides!, s.offset ?? 0).detach() : base.reshape(s.shape);
    }
    if ('$f' in v) return decodeNum(v.$f as Num);
    if ('$dtype' in v) return dtypeOf(v.$dtype as string);
    if ('$device' in v) return device === 'cpu' ? v.$device : device;
    if ('$memory_format' in v) return T[v.$memory_format as string] ?? v.$memory_format;
    throw new Error(`unknown argument encoding ${JSON.stringify(v)}`);
  };
  interface Call {
    input: unknown;
    args: unknown[];
    kwargs: Record<string, unknown>;
  }
  const buildCall = (s: OpinfoSample, device: Device): Call => {
    const kwargs: Record<string, unknown> = {};
    for (const k of Object.keys(s.kwargs)) kwargs[k] = build(s.kwargs[k]!, device);
    return { input: build(s.input, device), args: s.args.map((a) => build(a, device)), kwargs };
  };
  const withKw = (args: unknown[], kw: Record<string, unknown>): unknown[] => (Object.keys(kw).length > 0 ? [...args, kw] : args);
  // The harness's ADAPTERS that can reach the device's operators (test/opinfo/harness.ts).
  const adapters: Record<string, (c: Call) => unknown> = {
    where: (c) => (T['where'] as Fn)(...withKw([c.args[0], c.input, c.args[1]], c.kwargs)),
    T: (c) => (c.input as Tensor).T,
    mT: (c) => (c.input as Tensor).mT,
    einsum: (c) => (T['einsum'] as Fn)(c.args[0], c.input),
    zero_: (c) => (T['zero_'] as Fn)((c.input as Tensor).clone()),
    'nn.functional.embedding': (c) => (F['embedding'] as Fn)(...withKw([c.args[0], c.input], c.kwargs)),
  };
  const namespaced = (call: string): unknown => {
    if (!call.includes('.')) return undefined;
    let o: unknown = torch;
    for (const part of call.split('.')) o = (o as Record<string, unknown> | undefined)?.[part];
    return o;
  };
  const invoke = (op: OpinfoEntry, c: Call): unknown => {
    const adapter = adapters[op.key] ?? adapters[op.name];
    if (adapter !== undefined) return adapter(c);
    const rest = withKw(c.args, c.kwargs);
    const f = (op.name.startsWith('nn.functional.') ? F[op.call] : undefined) ?? T[op.call] ?? namespaced(op.call);
    if (typeof f === 'function') return (f as Fn)(c.input, ...rest);
    const m = (aten.Tensor.prototype as unknown as Record<string, unknown>)[op.call];
    if (typeof m === 'function') return (m as Fn).apply(c.input, rest);
    throw new Error(`aten-ts has no torch.${op.call} or Tensor.${op.call}`);
  };
  /** The sample's one result computed on the CPU with its float16 tensors as float32, rounded to float16 once (null if not one tensor). */
  const float32Reference = (op: OpinfoEntry, s: OpinfoSample): number[] | null => {
    const up = (v: unknown): unknown =>
      v instanceof aten.Tensor && String(v.dtype) === 'torch.float16' ? v.float() : Array.isArray(v) ? v.map(up) : v;
    const c = buildCall(s, 'cpu');
    const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, up(v)]));
    const r = tensorsOf(invoke(op, { input: up(c.input), args: c.args.map(up), kwargs }));
    return r.length === 1 && r[0] != null ? (r[0].detach().half().reshape(-1).tolist() as number[]) : null;
  };
  const tensorsOf = (r: unknown): (Tensor | null)[] =>
    r instanceof aten.Tensor ? [r] : Array.isArray(r) ? r.flatMap((x) => tensorsOf(x)) : [null];
  /** A refusal by the device (no kernel, a dtype or case it does not take, a synchronous read), not a wrong result. */
  const refusal = (e: unknown): string | null => {
    const m = e instanceof Error ? e.message : String(e);
    if (e instanceof CheckFailure) return null;
    if (e instanceof aten.NotImplementedError) return (/operator '([^']+)'/.exec(m)?.[1] ?? m.split('\n')[0]!).slice(0, 80);
    if (/^webgpu: |cpu_async|Cannot create a webgpu tensor of dtype|to be on cpu, but/.test(m)) return m.split('\n')[0]!.slice(0, 80);
    return null;
  };
  const close = (g: number | boolean, w: number | boolean, tol: { rtol: number; atol: number } | null): boolean => {
    if (typeof w === 'boolean' || typeof g === 'boolean' || tol === null) return g === w || (Number.isNaN(g) && Number.isNaN(w));
    if (Number.isNaN(w)) return Number.isNaN(g);
    if (!Number.isFinite(w)) return g === w;
    return Math.abs(g - w) <= tol.atol + tol.rtol * Math.abs(w);
  };
  const compare = async (
    what: string,
    dev: Tensor | null,
    cpu: Tensor | null,
    tol: { rtol: number; atol: number },
    noValues = false,
    halfTol = HALF_TOL,
  ): Promise<void> => {
    if (dev === null || cpu === null) {
      assert(dev === cpu, `${what}: ${dev === null ? 'no tensor' : 'a tensor'} on webgpu, ${cpu === null ? 'none' : 'one'} on cpu`);
      return;
    }
    assert(dev.device.toString() === 'webgpu:0', `${what}: on ${dev.device.toString()}`);
    assert(String(dev.dtype) === String(cpu.dtype), `${what}: dtype ${String(dev.dtype)}, cpu ${String(cpu.dtype)}`);
    assert(dev.sizes.join() === cpu.sizes.join(), `${what}: shape [${dev.sizes.join(', ')}], cpu [${cpu.sizes.join(', ')}]`);
    if (noValues) return;
    const g =
      ((await (dev.detach() as Tensor & { cpu_async(): Promise<Tensor> }).cpu_async()).reshape(-1).tolist() as (number | boolean)[]) ?? [];
    const w = cpu.detach().reshape(-1).tolist() as (number | boolean)[];
    const t = !cpu.is_floating_point() ? null : String(cpu.dtype) === 'torch.float16' ? halfTol : tol;
    for (let i = 0; i < w.length; i++) assert(close(g[i]!, w[i]!, t), `${what}: [${i}] ${String(g[i])}, cpu ${String(w[i])}`);
  };

  await check('OpInfo subset: values, meta agreement and gradients against the cpu device', async () => {
    const entries = await load();
    const registered = aten.Dispatcher.singleton()
      .getAllOpNames()
      .filter((n) => aten.Dispatcher.singleton().findOp(n)?.hasKernelForDispatchKey(aten.DispatchKey.PrivateUse1) === true);
    assert(registered.length > 50, `only ${registered.length} operators registered at PrivateUse1`);
    const reached = new Set<string>();
    let pending = new Set<string>();
    const stop = aten.addDispatchObserver({
      onEnter(e) {
        if (e.key === aten.DispatchKey.PrivateUse1) pending.add(e.op);
      },
    });
    const fallbackWas = wg.fallback_enabled();
    wg.set_fallback(false);
    const failures: string[] = [];
    const refused = new Map<string, number>();
    let [ran, values, metas, grads] = [0, 0, 0, 0];
    const cpuDiffers: string[] = [];
    const refuse = (why: string): void => void refused.set(why, (refused.get(why) ?? 0) + 1);
    try {
      for (const op of entries) {
        if (RANDOM.test(op.key)) continue;
        const halfTol = HALF_TOL_OF[op.name] ?? HALF_TOL;
        for (const s of op.samples) {
          if (randomSample(s)) continue;
          const id = `${op.key}|${s.dtype}|${s.index}`;
          let cpu: (Tensor | null)[];
          try {
            torch.manual_seed(s.seed ?? 0);
            cpu = tensorsOf(invoke(op, buildCall(s, 'cpu')));
          } catch {
            continue; // the CPU device raises too: the harness's errors area covers it
          }
          // A call with neither a tensor nor a device among its arguments (a factory) does not reach the device.
          if (!/"\$(t|device)"/.test(JSON.stringify([s.input, s.args, s.kwargs]))) continue;
          ran++;
          pending = new Set();
          let dev: (Tensor | null)[];
          try {
            dev = tensorsOf(invoke(op, buildCall(s, 'webgpu')));
          } catch (e) {
            const why = refusal(e);
            if (why === null) failures.push(`${id} values: threw ${(e as Error).message.split('\n')[0]}`);
            else refuse(why);
            continue;
          }
          try {
            assert(dev.length === cpu.length, `${dev.length} results, cpu ${cpu.length}`);
            try {
              for (let i = 0; i < cpu.length; i++)
                await compare(`result[${i}]`, dev[i]!, cpu[i]!, VALUE_TOL, s.no_values === true, halfTol);
            } catch (e) {
              // A float16 result the CPU device computes otherwise than PyTorch: the device must equal PyTorch's.
              const want = s.result as { $t?: string; values?: Num[] } | undefined;
              if (!(e instanceof Error) || refusal(e) !== null || want?.$t !== 'float16' || want.values === undefined || dev.length !== 1)
                throw e;
              const got = (await (dev[0]!.detach() as Tensor & { cpu_async(): Promise<Tensor> }).cpu_async())
                .reshape(-1)
                .tolist() as number[];
              const ws = want.values.map(decodeNum);
              const bad = got.length !== ws.length ? -1 : ws.findIndex((w, i) => !close(got[i]!, w, halfTol));
              if (got.length === ws.length && bad < 0) cpuDiffers.push(id);
              else {
                // Or the float32 computation rounded once, what the device's float16-through-float32 kernels give where
                // PyTorch's CPU kernel accumulates in float16 (conv_transpose3d's col2vol).
                const ref = float32Reference(op, s);
                assert(
                  ref !== null && got.length === ref.length && ref.every((w, i) => close(got[i]!, w, halfTol)),
                  `${e.message} (and PyTorch's result differs too: ${bad < 0 ? `${got.length} values, PyTorch ${ws.length}` : `[${bad}] ${got[bad]}, PyTorch ${String(ws[bad])}`}; and the float32 result rounded to float16)`,
                );
                cpuDiffers.push(`${id} (as float32 rounded once)`);
              }
            }
            values++;
            for (const o of pending) reached.add(o);
          } catch (e) {
            const why = refusal(e);
            if (why === null) failures.push(`${id} values: ${(e as Error).message}`);
            else refuse(`read: ${why}`);
            continue;
          }
          try {
            const meta = tensorsOf(invoke(op, buildCall(s, 'meta')));
            for (let i = 0; i < dev.length; i++) {
              const [d, m] = [dev[i], meta[i]];
              if (d == null || m == null) continue;
              const [ds, ms] = [
                `${String(d.dtype)} [${d.sizes.join(', ')}] strides [${d.strides.join(', ')}]`,
                `${String(m.dtype)} [${m.sizes.join(', ')}] strides [${m.strides.join(', ')}]`,
              ];
              assert(ds === ms || d.numel() <= 1, `result[${i}]: webgpu ${ds}, meta ${ms}`);
            }
            metas++;
          } catch (e) {
            failures.push(`${id} meta: ${(e as Error).message.split('\n')[0]}`);
          }
          if (s.dtype !== 'float32') continue;
          // The fixtures keep gradients for float64 only: here every float32 tensor argument is a leaf, every
          // float32 result an output, and the cotangents fixed LCG values (the same on both devices).
          const paths: (string | number)[][] = [];
          const walk = (v: Json, path: (string | number)[]): void => {
            if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
            else if (typeof v === 'object' && v !== null) {
              if ((v as { $t?: string }).$t === 'float32') paths.push(path);
            }
          };
          walk(s.input, [0]);
          s.args.forEach((a, i) => walk(a, [1, i]));
          for (const k of Object.keys(s.kwargs)) walk(s.kwargs[k]!, [2, k]);
          if (paths.length === 0) continue;
          const gradsOn = (device: Device): (Tensor | null)[] => {
            const c = buildCall(s, device);
            const root: unknown = [c.input, c.args, c.kwargs];
            const leaves = paths.map((path) => {
              let v: unknown = root;
              for (const p of path) v = (v as Record<string | number, unknown>)[p];
              return (v as Tensor).requires_grad_(true);
            });
            torch.manual_seed(s.seed ?? 0);
            const outs = tensorsOf(invoke(op, c)).filter((o): o is Tensor => o !== null && o.requires_grad);
            if (outs.length === 0) throw new Error('no differentiable result');
            const cots = outs.map((o, i) =>
              torch
                .tensor(lcg(o.numel(), 17 + i), { dtype: o.dtype } as never)
                .reshape([...o.sizes])
                .to(device),
            );
            return torch.autograd.grad(outs, leaves, { gradOutputs: cots, allowUnused: true } as never) as (Tensor | null)[];
          };
          let want: (Tensor | null)[];
          try {
            want = gradsOn('cpu');
          } catch {
            continue;
          }
          pending = new Set();
          try {
            const got = gradsOn('webgpu');
            for (let i = 0; i < want.length; i++) await compare(`grads[${i}]`, got[i] ?? null, want[i] ?? null, GRAD_TOL);
            grads++;
            for (const o of pending) reached.add(o);
          } catch (e) {
            const why = refusal(e);
            if (why === null) failures.push(`${id} grads: ${(e as Error).message.split('\n')[0]}`);
            else refuse(`grad: ${why}`);
          }
        }
        if (failures.length > 40) break;
      }
    } finally {
      stop();
      wg.set_fallback(fallbackWas);
    }
    const unreached = registered.filter((n) => !reached.has(n));
    const top = [...refused]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([w, n]) => `${n}x ${w}`);
    assert(failures.length === 0, `${failures.length} differences:\n${failures.slice(0, 40).join('\n')}`);
    assert(values > 100 && grads > 30, `too few samples compared: ${values} values, ${grads} gradients`);
    return (
      `${registered.length} operators registered at PrivateUse1, ${registered.length - unreached.length} reached; ${ran} samples of ${entries.length} OpInfo ` +
      `entries (at most ${SAMPLES_PER_DTYPE} per dtype): ${values} values, ${metas} meta, ${grads} gradients agree; ` +
      `refused: ${[...refused.values()].reduce((a, b) => a + b, 0)} (most: ${top.join('; ')}); ` +
      `float16 results equal to PyTorch's where the cpu device's differ: ${cpuDiffers.length > 0 ? cpuDiffers.join(', ') : 'none'}; ` +
      `registered but reached by no sample (${unreached.length}): ${unreached.join(', ')}`
    );
  });
}
