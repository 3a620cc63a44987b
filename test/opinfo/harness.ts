// Replays PyTorch's OpInfo samples (test/golden/opinfo/*.json.gz, from tools/golden/gen_opinfo.py) through
// the public `torch` API as a user types them — `torch.nn.functional.<op>` for OpInfo's nn.functional entries,
// `torch.<op>(input, ...args, { ...kwargs })`, or the Tensor method when aten-ts has no function (the calls are
// test/opinfo/adapters.ts) — and compares with PyTorch 2.13 in five areas:
//   values   result dtype and shape always, values with torch.testing.assert_close's default tolerances
//            (float32 rtol 1.3e-6 / atol 1e-5, float64 1e-7 / 1e-7, float16 1e-3 / 1e-5, bfloat16 1.6e-2 /
//            1e-5, integers and bool exact; NaN matches
//            NaN), strides when PyTorch's result is a view of an input; PyTorch's error text when it raised
//   meta     the same call on meta tensors of the same sizes/strides: dtype, shape, strides, or the error text
//   grads    float64 first-order gradients for PyTorch's seeded cotangent (null where PyTorch's is None)
//   grad_fn  the name of the first differentiable output's grad_fn
//   errors   OpInfo's error_inputs: the exact error text
// Every comparison is an outcome keyed `<op>[.<variant>]|<dtype>|<sample index>|<area>`; test/opinfo/
// opinfo.test.ts checks them against test/opinfo/known_failures.json, and tools/opinfo-report.ts writes
// that list and the FEATURES.md pass rates from a run. Node-only (reads the fixtures with node:fs/zlib).
import { readFileSync } from 'node:fs';
import { Dtype } from '../../src/c10/Dtype.js';
import { gunzipSync } from 'node:zlib';
import { Tensor } from '../../src/api/index.js';
import { Ellipsis, Slice } from '../../src/api/TensorIndexing.js';
import * as torch from '../../src/torch.js';
import { dtypeName } from '../../src/c10/ScalarType.js';
import { invoke } from './adapters.js';

export type Area = 'values' | 'meta' | 'grads' | 'grad_fn' | 'errors';
export const AREAS: readonly Area[] = ['values', 'meta', 'grads', 'grad_fn', 'errors'];

type Num = number | boolean | string;
interface TensorJson {
  $t: string;
  shape: number[];
  values?: Num[];
  strides?: number[];
  offset?: number;
  storage?: Num[];
  view?: boolean;
  /** Aliasing in error inputs (tools/golden/gen_opinfo.py): this tensor is passed again as {"$ref": $id}. */
  $id?: number;
  /** Aliasing in error inputs: distinct tensors over one storage, built as views of one base per $storage. */
  $storage?: number;
}
interface ErrorJson {
  error: string | null;
  type?: string;
}
type Json =
  | TensorJson
  | ErrorJson
  | { $f: Num }
  | { $dtype: string }
  | { $device: string }
  | { $memory_format: string }
  | Json[]
  | Num
  | null
  | { [k: string]: Json };

interface Sample {
  index: number;
  kind: string;
  input: Json;
  args: Json[];
  kwargs: Record<string, Json>;
  /** torch.manual_seed before PyTorch's call (values and gradients): random operators draw the same numbers */
  seed?: number;
  result: Json;
  no_values?: boolean;
  meta: Json;
  grad_inputs?: (string | number)[][];
  grad_outputs?: number[];
  cotangents?: Num[][];
  grads?: (TensorJson | null)[] | ErrorJson;
  grad_fn?: string | null;
}
interface ErrorSample {
  index: number;
  input: Json;
  args: Json[];
  kwargs: Record<string, Json>;
  error: string | null;
  type?: string;
}
export interface OpEntry {
  name: string;
  variant: string;
  key: string;
  call: string;
  dtypes: Record<string, Sample[]>;
  errors: ErrorSample[];
}
export interface Fixture {
  generated_by: string;
  torch_version: string;
  family: string;
  ops: OpEntry[];
}

export interface Outcome {
  key: string;
  family: string;
  op: string;
  area: Area;
  /** Empty when aten-ts agrees with PyTorch; else the first problem found. */
  problem: string;
}

const FIXTURES = new URL('../golden/opinfo/', import.meta.url);

/** The fixture files (one or more per op family), from test/golden/opinfo/index.json. */
export function fixtureFiles(): string[] {
  const index = JSON.parse(readFileSync(new URL('index.json', FIXTURES), 'utf8')) as { files: string[]; generated_by: string };
  if (index.generated_by !== 'tools/golden/gen_opinfo.py') throw new Error('test/golden/opinfo/index.json lacks provenance');
  return index.files;
}

export function loadFixture(file: string): Fixture {
  const data = JSON.parse(gunzipSync(readFileSync(new URL(file, FIXTURES))).toString('utf8')) as Fixture;
  if (data.generated_by !== 'tools/golden/gen_opinfo.py' || !data.torch_version.startsWith('2.13')) {
    throw new Error(`test/golden/opinfo/${file} lacks generated_by/torch_version provenance`);
  }
  return data;
}

// ---- building arguments ---------------------------------------------------------------------------------

const T = torch as unknown as Record<string, unknown>;

function decodeNum(v: Num): number | boolean {
  if (v === 'nan') return Number.NaN;
  if (v === 'inf') return Number.POSITIVE_INFINITY;
  if (v === '-inf') return Number.NEGATIVE_INFINITY;
  if (typeof v === 'string') throw new Error(`not a number: ${v}`);
  return v;
}

function dtypeOf(name: string): number {
  const d = T[name];
  if (!(d instanceof Dtype)) throw new Error(`aten-ts has no dtype torch.${name}`);
  return d.scalarType;
}

const isObj = (v: Json): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tensors of one call already built, for the aliasing of error inputs ($id/$ref, $storage). */
interface Aliases {
  byId: Map<number, Tensor>;
  bases: Map<number, Tensor>;
}

function buildTensor(s: TensorJson, device: 'cpu' | 'meta', aliases: Aliases): Tensor {
  const t = buildTensorOnce(s, device, aliases);
  if (s.$id !== undefined) aliases.byId.set(s.$id, t);
  return t;
}

/** A complex tensor's values are interleaved [re, im] pairs (tools/golden/gen_opinfo.py's fft family). */
const COMPLEX_REAL: Record<string, string> = { complex64: 'float32', complex128: 'float64' };

/** `values` (interleaved pairs when `$t` is complex) as a 1-D tensor of `$t`. */
function valuesTensor(values: Num[], $t: string): Tensor {
  const real = COMPLEX_REAL[$t];
  const nums = values.map(decodeNum) as number[];
  if (real === undefined) return torch.tensor(nums, { dtype: dtypeOf($t) });
  return torch.view_as_complex(torch.tensor(nums, { dtype: dtypeOf(real) }).reshape([-1, 2]));
}

function buildTensorOnce(s: TensorJson, device: 'cpu' | 'meta', aliases: Aliases): Tensor {
  const dtype = dtypeOf(s.$t);
  // a meta tensor of the sample itself (gradient's error input mixes devices): strides and no values
  const metaInSample = s.values === undefined && s.storage === undefined && s.strides !== undefined;
  if (device === 'meta' || metaInSample) {
    const strides = s.strides ?? contiguousStrides(s.shape);
    return torch.empty_strided(s.shape, strides, { dtype, device: 'meta' });
  }
  if (s.storage !== undefined) {
    const shared = s.$storage === undefined ? undefined : aliases.bases.get(s.$storage);
    const base = shared ?? valuesTensor(s.storage, s.$t);
    if (s.$storage !== undefined) aliases.bases.set(s.$storage, base);
    return base.as_strided(s.shape, s.strides as number[], s.offset ?? 0).detach();
  }
  return valuesTensor(s.values ?? [], s.$t).reshape(s.shape);
}

function contiguousStrides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = acc;
    acc *= Math.max(shape[i] as number, 1);
  }
  return st;
}

function build(v: Json, device: 'cpu' | 'meta', aliases: Aliases): unknown {
  if (Array.isArray(v)) return v.map((x) => build(x, device, aliases));
  if (!isObj(v)) return v; // a Python int, bool, str or None
  if ('$t' in v) return buildTensor(v as unknown as TensorJson, device, aliases);
  if ('$ref' in v) {
    const t = aliases.byId.get(v.$ref as number);
    if (t === undefined) throw new Error(`unknown tensor reference ${JSON.stringify(v)}`);
    return t;
  }
  if ('$f' in v) return decodeNum(v.$f as Num);
  if ('$dtype' in v) return dtypeOf(v.$dtype as string);
  if ('$device' in v) return v.$device;
  if ('$memory_format' in v) return T[v.$memory_format as string] ?? v.$memory_format;
  if ('$slice' in v) return Slice(...(v.$slice as (number | null)[]));
  if ('$ellipsis' in v) return Ellipsis;
  throw new Error(`unknown argument encoding ${JSON.stringify(v)}`);
}

export interface Call {
  input: unknown;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

function buildCall(s: { input: Json; args: Json[]; kwargs: Record<string, Json> }, device: 'cpu' | 'meta'): Call {
  // In the generator's order (input, args, kwargs by key), so a {"$ref"} follows its {"$id"}.
  const aliases: Aliases = { byId: new Map(), bases: new Map() };
  const input = build(s.input, device, aliases);
  const args = s.args.map((a) => build(a, device, aliases));
  const kwargs: Record<string, unknown> = {};
  for (const k of Object.keys(s.kwargs)) kwargs[k] = build(s.kwargs[k] as Json, device, aliases);
  return { input, args, kwargs };
}

// ---- comparing --------------------------------------------------------------------------------------------

const TOL: Record<string, [number, number]> = {
  float32: [1.3e-6, 1e-5],
  float64: [1e-7, 1e-7],
  complex64: [1.3e-6, 1e-5],
  complex128: [1e-7, 1e-7],
  float16: [1e-3, 1e-5],
  bfloat16: [1.6e-2, 1e-5],
};

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] as string;
}

function flat(t0: Tensor): (number | boolean)[] {
  const t = t0.isComplex() ? torch.view_as_real(t0.detach()) : t0;
  const l = t.detach().tolist() as unknown;
  return Array.isArray(l) ? (l.flat(Number.POSITIVE_INFINITY) as (number | boolean)[]) : [l as number];
}

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function closeValue(got: number | boolean, want: number | boolean, dtype: string): boolean {
  if (typeof want === 'boolean' || typeof got === 'boolean') return got === want;
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  const tol = TOL[dtype];
  if (tol === undefined) return got === want;
  return Math.abs(got - want) <= tol[1] + tol[0] * Math.abs(want);
}

function compareTensor(what: string, got: unknown, want: TensorJson, opts: { values: boolean; strides: boolean }): string {
  if (!(got instanceof Tensor)) return `${what}: expected a Tensor, got ${describe(got)}`;
  const gd = dtypeName(got.scalarType);
  if (gd !== want.$t) return `${what}: dtype ${gd}, expected ${want.$t}`;
  if (!same(got.sizes, want.shape)) return `${what}: shape [${got.sizes.join(', ')}], expected [${want.shape.join(', ')}]`;
  if (opts.strides && want.strides !== undefined && got.numel() > 1 && !same(got.strides, want.strides)) {
    return `${what}: strides [${got.strides.join(', ')}], expected [${want.strides.join(', ')}]`;
  }
  if (!opts.values || want.values === undefined) return '';
  const g = flat(got);
  const w = want.values.map(decodeNum);
  for (let i = 0; i < w.length; i++) {
    if (!closeValue(g[i] as number, w[i] as number, want.$t)) return `${what}: value[${i}] ${String(g[i])}, expected ${String(w[i])}`;
  }
  return '';
}

function describe(v: unknown): string {
  if (v instanceof Tensor) return `Tensor[${v.sizes.join(', ')}]`;
  if (Array.isArray(v)) return `array(${v.length})`;
  return typeof v === 'object' ? String(v) : `${typeof v} ${String(v)}`;
}

/** Compares a result with PyTorch's (tensor, tuple/list, Python scalar); `meta`: shapes/dtypes/strides only. */
function compareResult(what: string, got: unknown, want: Json, meta: boolean, noValues: boolean): string {
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${what}: expected a sequence of ${want.length}, got ${describe(got)}`;
    if (got.length !== want.length) return `${what}: ${got.length} elements, expected ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const p = compareResult(`${what}[${i}]`, got[i], want[i] as Json, meta, noValues);
      if (p !== '') return p;
    }
    return '';
  }
  if (isObj(want) && '$t' in want) {
    const w = want as unknown as TensorJson;
    return compareTensor(what, got, w, { values: !meta && !noValues, strides: meta || w.view === true || noValues });
  }
  const w = build(want, 'cpu', { byId: new Map(), bases: new Map() });
  if (got instanceof Tensor) return `${what}: got a Tensor, expected ${String(w)}`;
  if (typeof w === 'number' && typeof got === 'number') return closeValue(got, w, 'float64') ? '' : `${what}: ${got}, expected ${w}`;
  return got === w ? '' : `${what}: ${describe(got)}, expected ${String(w)}`;
}

function compareThrow(fn: () => unknown, want: ErrorJson): string {
  try {
    fn();
  } catch (e) {
    if (want.error === null) return `threw: ${firstLine(e)}`;
    const msg = e instanceof Error ? e.message : String(e);
    return msg === want.error ? '' : `error text: ${firstLine(msg)} | expected: ${want.error.split('\n')[0] as string}`;
  }
  return want.error === null ? '' : `did not raise: ${want.error.split('\n')[0] as string}`;
}

const isError = (v: Json | undefined): v is { error: string } => isObj(v ?? null) && 'error' in (v as object);

function resultTensors(v: unknown, out: Tensor[] = []): Tensor[] {
  if (v instanceof Tensor) out.push(v);
  else if (Array.isArray(v)) for (const x of v) resultTensors(x, out);
  return out;
}

function at(c: Call, path: readonly (string | number)[]): unknown {
  let v: unknown = [c.input, c.args, c.kwargs];
  for (const p of path) v = (v as Record<string | number, unknown>)[p];
  return v;
}

function compareGrads(op: OpEntry, s: Sample): { grads: string; gradFn: string } {
  const want = s.grads as (TensorJson | null)[] | ErrorJson;
  let c: Call;
  let outs: Tensor[];
  let leaves: Tensor[];
  if (s.grad_outputs === undefined && !Array.isArray(want)) {
    // PyTorch's forward with requires_grad inputs raised (or its outputs): the same error from the whole call
    const p = compareThrow(() => {
      const cc = buildCall(s, 'cpu');
      const ls = (s.grad_inputs ?? []).map((q) => (at(cc, q) as Tensor).requiresGrad_());
      const os = resultTensors(invoke(op, cc)).filter((o) => o.requiresGrad);
      return torch.autograd.grad(os, ls, { allowUnused: true });
    }, want);
    return { grads: p, gradFn: p };
  }
  try {
    c = buildCall(s, 'cpu');
    leaves = (s.grad_inputs ?? []).map((p) => (at(c, p) as Tensor).requiresGrad_());
    torch.manualSeed(s.seed ?? 0);
    const all = resultTensors(invoke(op, c));
    outs = (s.grad_outputs ?? []).map((i) => all[i] as Tensor);
    if (outs.some((o) => o === undefined)) throw new Error(`${all.length} result tensors, fewer than PyTorch's`);
  } catch (e) {
    const p = `forward threw: ${firstLine(e)}`;
    return { grads: p, gradFn: p };
  }
  const o0 = outs[0] as Tensor;
  const gotName = o0.gradFn?.name() ?? null;
  const gradFn = gotName === (s.grad_fn ?? null) ? '' : `grad_fn ${String(gotName)}, expected ${String(s.grad_fn)}`;
  let cots: Tensor[];
  try {
    cots = outs.map((o, i) => valuesTensor(s.cotangents?.[i] ?? [], dtypeName(o.scalarType)).reshape([...o.sizes]));
  } catch (e) {
    return { grads: `cotangent for the output: ${firstLine(e)}`, gradFn };
  }
  if (!Array.isArray(want)) {
    return { grads: compareThrow(() => torch.autograd.grad(outs, leaves, { gradOutputs: cots, allowUnused: true }), want), gradFn };
  }
  let got: (Tensor | null)[];
  try {
    got = torch.autograd.grad(outs, leaves, { gradOutputs: cots, allowUnused: true });
  } catch (e) {
    return { grads: `grad threw: ${firstLine(e)}`, gradFn };
  }
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? null;
    const g = got[i] ?? null;
    if (w === null) {
      if (g !== null) return { grads: `grads[${i}]: expected None, got a tensor`, gradFn };
    } else if (g === null) {
      return { grads: `grads[${i}]: got None, expected a gradient`, gradFn };
    } else {
      const p = compareTensor(`grads[${i}]`, g, w, { values: true, strides: false });
      if (p !== '') return { grads: p, gradFn };
    }
  }
  return { grads: '', gradFn };
}

/**
 * Under ATEN_TS_STRESS_GROW=1 (memory grown before every allocation, ~10x slower) the stress run replays the
 * first sample of each op's first dtype and its first error input only: a fixed, named subset, never a silent skip.
 */
export const STRESS_SUBSET =
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env['ATEN_TS_STRESS_GROW'] === '1';

/** Runs every sample of one fixture file (`subset`: see STRESS_SUBSET); one outcome per area. */
export function runFixture(fx: Fixture, subset = STRESS_SUBSET): Outcome[] {
  const out: Outcome[] = [];
  const push = (op: OpEntry, id: string, area: Area, problem: string): void => {
    out.push({ key: `${op.key}|${id}|${area}`, family: fx.family, op: op.key, area, problem });
  };
  for (const op of fx.ops) {
    for (const dtype of Object.keys(op.dtypes)) {
      for (const s of op.dtypes[dtype] as Sample[]) {
        if (subset && (dtype !== Object.keys(op.dtypes)[0] || s !== op.dtypes[dtype]?.[0])) continue;
        const id = `${dtype}|${s.index}`;
        // values
        let problem: string;
        if (isError(s.result)) {
          problem = compareThrow(() => invoke(op, buildCall(s, 'cpu')), s.result);
        } else {
          try {
            torch.manualSeed(s.seed ?? 0);
            problem = compareResult('result', invoke(op, buildCall(s, 'cpu')), s.result, false, s.no_values === true);
          } catch (e) {
            problem = `threw: ${firstLine(e)}`;
          }
        }
        push(op, id, 'values', problem);
        // meta
        if (isError(s.meta)) {
          problem = compareThrow(() => invoke(op, buildCall(s, 'meta')), s.meta);
        } else {
          try {
            problem = compareResult('meta', invoke(op, buildCall(s, 'meta')), s.meta, true, false);
          } catch (e) {
            problem = `threw: ${firstLine(e)}`;
          }
        }
        push(op, id, 'meta', problem);
        // gradients
        if (s.grads !== undefined) {
          const g = compareGrads(op, s);
          push(op, id, 'grads', g.grads);
          if (!isError(s.grads as Json)) push(op, id, 'grad_fn', g.gradFn);
        }
      }
    }
    for (const e of op.errors) {
      if (subset && e !== op.errors[0]) continue;
      let problem: string;
      try {
        const c = buildCall(e, 'cpu');
        problem = compareThrow(() => invoke(op, c), { error: e.error });
      } catch (err) {
        problem = `building the call threw: ${firstLine(err)}`;
      }
      push(op, `errors|${e.index}`, 'errors', problem);
    }
  }
  return out;
}

/**
 * The result tensors of every value sample of `fx` that PyTorch did not reject, by `<op>|<dtype>|<index>`: the
 * `values` area's calls without the comparison, for comparing two kernel paths with each other bit for bit
 * (test/wasm/fallback_goldens.test.ts). A call that throws is left out (its values outcome reports it).
 */
export function replayResults(fx: Fixture): Map<string, Tensor[]> {
  const out = new Map<string, Tensor[]>();
  for (const op of fx.ops) {
    for (const dtype of Object.keys(op.dtypes)) {
      for (const s of op.dtypes[dtype] as Sample[]) {
        if (isError(s.result)) continue;
        try {
          torch.manualSeed(s.seed ?? 0);
          out.set(`${op.key}|${dtype}|${s.index}`, resultTensors(invoke(op, buildCall(s, 'cpu'))));
        } catch {
          // reported by runFixture's values outcome
        }
      }
    }
  }
  return out;
}
