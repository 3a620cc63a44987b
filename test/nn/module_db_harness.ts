// Replays PyTorch's ModuleInfo samples (test/golden/module_db.json.gz, from tools/golden/gen_module_db.py)
// through aten-ts's nn: for each sample, `torch.manual_seed(0)`, the constructor (PyTorch's positional
// arguments, then one options object for the keywords), `to(dtype)`, `train(training)`; then repr, state_dict
// keys and initial values (bit for bit: the generator draws as PyTorch's does), `manual_seed(1)` and the
// forward, the buffers after it, and the gradients for the recorded upstream gradient.
// Used by test/nn/module_db.test.ts and tools/module-db-report.ts (FEATURES.md's module_db table). Node-only.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Tensor, torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';

type Num = number | 'nan' | 'inf' | '-inf';
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface TensorJson {
  $t: string;
  shape: number[];
  values: Num[];
  rg?: boolean;
}
export interface Sample {
  dtype: 'float64' | 'float32';
  training: boolean;
  index: number;
  desc: string;
  args: Json[];
  kwargs: { [k: string]: Json };
  forward_args: Json[];
  forward_kwargs: { [k: string]: Json };
  repr: string;
  state_keys: string[];
  state?: Record<string, TensorJson>;
  output: Json;
  state_after: Record<string, TensorJson>;
  grad_outputs: TensorJson[];
  param_grads: Record<string, TensorJson>;
  input_grads: (TensorJson | null)[];
}
export interface Entry {
  name: string;
  cls: string;
  is_lazy: boolean;
  samples: Sample[];
}
export interface Fixture {
  generated_by: string;
  torch_version: string;
  total: number;
  entries: Entry[];
  skipped: { module: string; samples: number; reason: string }[];
}

export function loadModuleDb(): Fixture {
  const url = new URL('../golden/module_db.json.gz', import.meta.url);
  const data = JSON.parse(gunzipSync(readFileSync(url)).toString('utf8')) as Fixture;
  if (data.generated_by !== 'tools/golden/gen_module_db.py' || !data.torch_version.startsWith('2.13'))
    throw new Error('test/golden/module_db.json.gz lacks generated_by/torch_version provenance');
  return data;
}

const NN = nn as unknown as Record<string, unknown>;
const F = nn.functional as unknown as Record<string, unknown>;
type Ctor = new (...args: unknown[]) => nn.Module;

const num = (v: Num): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const isObj = (v: Json): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

function tensorOf(s: TensorJson): Tensor {
  const t = torch.tensor(s.values.map(num), { dtype: s.$t as 'float64' }).reshape(s.shape);
  return s.rg === true ? t.requires_grad_(true) : t;
}

/** A recorded value as aten-ts takes it; `top` collects the top-level tensors (the ones whose grads are recorded). */
function build(v: Json): unknown {
  if (Array.isArray(v)) return v.map(build);
  if (!isObj(v)) return v;
  if ('$t' in v) return tensorOf(v as unknown as TensorJson);
  if ('$f' in v) return num(v.$f as Num);
  if ('$dtype' in v) return (torch as unknown as Record<string, unknown>)[v.$dtype as string];
  if ('$device' in v) return v.$device;
  if ('$fn' in v) {
    const f = F[v.$fn as string];
    if (f === undefined) throw new Error(`missing nn.functional.${v.$fn as string}`);
    return f;
  }
  if ('$module' in v) return construct(v.$module as string, v.args as Json[], v.kwargs as { [k: string]: Json });
  if ('$dataclass' in v) return build(v.fields as Json);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, build(x)]));
}

function construct(cls: string, args: Json[], kwargs: { [k: string]: Json }): nn.Module {
  const C = NN[cls] as Ctor | undefined;
  if (C === undefined) throw new MissingModule(cls);
  const a = args.map(build);
  if (Object.keys(kwargs).length > 0) a.push(build(kwargs));
  return new C(...a);
}

export class MissingModule extends Error {
  constructor(cls: string) {
    super(`aten-ts has no nn.${cls}`);
  }
}

/** Empty when the values agree; else the first difference. */
function compare(what: string, got: unknown, want: TensorJson, tol: { rtol: number; atol: number }): string {
  if (!(got instanceof Tensor)) return `${what}: expected a tensor, got ${String(got)}`;
  const g = got as Tensor;
  if (g.shape.join(',') !== want.shape.join(',')) return `${what}: shape [${g.shape.join(', ')}], PyTorch [${want.shape.join(', ')}]`;
  if (String(g.dtype).replace('torch.', '') !== want.$t) return `${what}: dtype ${String(g.dtype)}, PyTorch ${want.$t}`;
  const vals = g.detach().contiguous().flatten().tolist() as (number | boolean)[];
  // a float32 golden is the shortest decimal that reads back as its float32: compare as float32
  const round = want.$t === 'float32' ? Math.fround : (x: number): number => x;
  for (let i = 0; i < vals.length; i++) {
    const a = round(Number(vals[i]));
    const b = round(num(want.values[i] as Num));
    if (Number.isNaN(b) ? Number.isNaN(a) : Math.abs(a - b) <= tol.atol + tol.rtol * Math.abs(b)) continue;
    return `${what}: element ${i} is ${a}, PyTorch ${b}`;
  }
  return '';
}

function compareNested(what: string, got: unknown, want: Json, tol: { rtol: number; atol: number }): string {
  if (want === null) return got === null || got === undefined ? '' : `${what}: expected None`;
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${what}: expected a tuple of ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const p = compareNested(`${what}[${i}]`, got[i], want[i] as Json, tol);
      if (p !== '') return p;
    }
    return '';
  }
  return compare(what, got, want as unknown as TensorJson, tol);
}

function flatTensors(v: unknown): Tensor[] {
  if (v instanceof Tensor) return [v];
  if (Array.isArray(v)) return v.flatMap(flatTensors);
  return [];
}

export const AREAS = ['construct', 'repr', 'state_keys', 'init', 'forward', 'buffers', 'grads'] as const;
export type Area = (typeof AREAS)[number];
export interface Outcome {
  module: string;
  key: string;
  area: Area;
  problem: string;
}

const TOL = {
  float64: { rtol: 1e-7, atol: 1e-9 },
  float32: { rtol: 2e-4, atol: 2e-5 },
};
const EXACT = { rtol: 0, atol: 0 };

/** Every area's outcome for one sample (a failure stops the areas after it: they are reported failing too). */
export function runSample(entry: Entry, s: Sample): Outcome[] {
  const key = `${entry.name}|${s.dtype}|${s.training ? 'train' : 'eval'}|${s.index}`;
  const out: Outcome[] = [];
  const report = (area: Area, problem: string): void => void out.push({ module: entry.name, key, area, problem });
  const rest = (from: Area, problem: string): Outcome[] => {
    for (const a of AREAS.slice(AREAS.indexOf(from))) report(a, problem);
    return out;
  };
  const tol = TOL[s.dtype];
  let m: nn.Module;
  try {
    torch.manual_seed(0);
    m = construct(entry.cls, s.args, s.kwargs);
    m.to(build({ $dtype: s.dtype }) as never);
    m.train(s.training);
  } catch (e) {
    return rest('construct', e instanceof MissingModule ? 'missing' : `constructor: ${(e as Error).message}`);
  }
  report('construct', '');
  report('repr', m.toString() === s.repr ? '' : `repr ${JSON.stringify(m.toString())}, PyTorch ${JSON.stringify(s.repr)}`);
  const sd = m.state_dict();
  const keys = Object.keys(sd);
  report(
    'state_keys',
    keys.join(',') === s.state_keys.join(',') ? '' : `state_dict keys [${keys.join(', ')}], PyTorch [${s.state_keys.join(', ')}]`,
  );
  let init = '';
  for (const [k, w] of Object.entries(s.state ?? {})) {
    init = k in sd ? compare(`${k} (init)`, sd[k], w, EXACT) : `no ${k}`;
    if (init !== '') break;
  }
  report('init', init);
  let result: unknown;
  const fargs = s.forward_args.map(build);
  const fkw = build(s.forward_kwargs) as Record<string, unknown>;
  try {
    torch.manual_seed(1);
    const call = (m as unknown as { call(...a: unknown[]): unknown }).call.bind(m);
    result = Object.keys(fkw).length > 0 ? call(...fargs, fkw) : call(...fargs);
  } catch (e) {
    return rest('forward', `forward: ${(e as Error).message}`);
  }
  report('forward', compareNested('output', result, s.output, tol));
  const after = m.state_dict();
  let buffers = '';
  for (const [k, w] of Object.entries(s.state_after)) {
    buffers = k in after ? compare(`${k} (after forward)`, after[k], w, tol) : `no ${k}`;
    if (buffers !== '') break;
  }
  report('buffers', buffers);
  try {
    const outs = flatTensors(result).filter((t) => t.requires_grad && t.is_floating_point());
    if (outs.length !== s.grad_outputs.length)
      return rest('grads', `${outs.length} outputs require grad, PyTorch ${s.grad_outputs.length}`);
    if (outs.length > 0) torch.autograd.backward(outs, s.grad_outputs.map(tensorOf));
    let grads = '';
    const params = new Map(m.named_parameters());
    for (const [k, w] of Object.entries(s.param_grads)) {
      grads = compare(`grad of ${k}`, params.get(k)?.grad ?? null, w, tol);
      if (grads !== '') break;
    }
    const ins = [...fargs, ...Object.values(fkw)].filter((x) => x instanceof Tensor) as Tensor[];
    for (let i = 0; grads === '' && i < s.input_grads.length; i++) {
      const w = s.input_grads[i] as TensorJson | null;
      const g = ins[i]?.grad ?? null;
      grads = w === null ? (g === null ? '' : `input ${i} has a grad, PyTorch none`) : compare(`grad of input ${i}`, g, w, tol);
    }
    report('grads', grads);
  } catch (e) {
    report('grads', `backward: ${(e as Error).message}`);
  }
  return out;
}

/** One line per module: covered when every area of every sample passes. */
export function summarize(fx: Fixture, outcomes: Outcome[]): { module: string; samples: number; failing: Outcome | undefined }[] {
  return fx.entries.map((e) => {
    const mine = outcomes.filter((o) => o.module === e.name);
    return { module: e.name, samples: e.samples.length, failing: mine.find((o) => o.problem !== '') };
  });
}
