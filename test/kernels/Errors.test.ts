// PyTorch's error for bad calls, at least one per operator of the pointwise, reduction, linear-algebra, shape/indexing and nn families: every case of test/golden/errors.json
// (tools/golden/gen_errors.py) is replayed through the public `torch` API and must throw PyTorch's message
// exactly. A case whose text cannot match yet is listed in KNOWN_DIFFERENCES with the reason and aten-ts's
// current text; the test asserts that it still differs, so a fix forces the entry out.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';

type Value = number | boolean | string;
interface Spec {
  dtype: string;
  sizes: number[];
  values: Value[];
  expand?: number[];
}
type Arg = Spec | Arg[] | number | boolean | string | null;
interface Case {
  id: string;
  op: string;
  fn: string;
  name: string;
  method: boolean;
  args: Arg[];
  kwargs: Record<string, Arg>;
  error_type: string;
  error: string;
}

const golden = loadGolden<{ cases: Case[] }>('errors.json');

/**
 * Cases whose text aten-ts cannot give yet, each with the reason and the start of the text it gives today (the
 * test asserts both, so an entry fails once the difference is fixed or changes). Every one needs a change
 * outside the kernels: the argument parser (src/api/python_arg_parser.ts), native_functions.yaml or the dispatcher.
 * None today.
 */
const KNOWN_DIFFERENCES: Record<string, { reason: string; ours: string }> = {};

const isSpec = (a: Arg): a is Spec => typeof a === 'object' && a !== null && !Array.isArray(a) && 'sizes' in a;

function build(a: Arg): unknown {
  if (isSpec(a)) {
    const t = torch.tensor(a.values as number[], { dtype: a.dtype }).reshape(a.sizes);
    return a.expand === undefined ? t : t.expand(a.expand);
  }
  if (Array.isArray(a)) return a.map(build);
  return a;
}

type Fn = (...args: unknown[]) => unknown;

function call(c: Case): unknown {
  const args = c.args.map(build);
  const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, build(v)]));
  if (Object.keys(kwargs).length > 0) args.push(kwargs);
  if (c.method) {
    const self = args.shift() as Tensor;
    const m = (self as unknown as Record<string, Fn | undefined>)[c.name];
    if (m === undefined) throw new Error(`aten-ts has no method Tensor.${c.name}`);
    return m.apply(self, args);
  }
  const f = (torch as unknown as Record<string, Fn | undefined>)[c.name];
  if (f === undefined) throw new Error(`aten-ts has no function torch.${c.name}`);
  return f(...args);
}

function errorOf(c: Case): string {
  try {
    call(c);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '<no error>';
}

describe("PyTorch's errors for bad calls (golden)", () => {
  it('covers every listed operator with at least one case', () => {
    const ops = new Set(golden.cases.map((c) => c.op));
    expect(ops.size).toBeGreaterThanOrEqual(126);
    expect(new Set(golden.cases.map((c) => c.id)).size).toBe(golden.cases.length);
  });

  it('lists only known differences that name a case', () => {
    const ids = new Set(golden.cases.map((c) => c.id));
    for (const id of Object.keys(KNOWN_DIFFERENCES)) expect(ids.has(id), id).toBe(true);
  });

  it.each(golden.cases.map((c) => [`${c.id} ${c.method ? 'Tensor.' : 'torch.'}${c.name}: ${c.error_type}`, c] as const))('%s', (_n, c) => {
    const got = errorOf(c);
    const known = KNOWN_DIFFERENCES[c.id];
    if (known === undefined) {
      expect(got).toBe(c.error);
      return;
    }
    console.info(`known difference ${c.id}: ${known.reason}`);
    expect(got).not.toBe(c.error);
    expect(got.startsWith(known.ours), got).toBe(true);
  });
});
