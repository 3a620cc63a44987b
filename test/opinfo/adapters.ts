// How test/opinfo/harness.ts calls an OpInfo entry in aten-ts, as a user would type it: the adapters of the
// entries whose `op` in PyTorch's torch/testing/_internal/common_methods_invocations.py is a lambda or wrapper
// (argument reordering, several operators, Tensor properties, seeded methods), and otherwise
// torch.nn.functional.X, torch.X, torch.<namespace>.X or the Tensor method X.
import { Tensor } from '../../src/api/index.js';
import type { TensorIndex } from '../../src/api/TensorIndexing.js';
import * as torch from '../../src/torch.js';
import type { Call, OpEntry } from './harness.js';

type Fn = (...args: unknown[]) => unknown;
const T = torch as unknown as Record<string, unknown>;
const FULL = torch as unknown as Record<string, unknown>;
const FULL_NN_F = (torch.nn as unknown as { functional: Record<string, unknown> }).functional;

const withKw = (args: unknown[], kwargs: Record<string, unknown>): unknown[] => (Object.keys(kwargs).length > 0 ? [...args, kwargs] : args);
const fn = (name: string): Fn => {
  const f = T[name];
  if (typeof f !== 'function') throw new Error(`aten-ts has no torch.${name}`);
  return f as Fn;
};

/**
 * OpInfo entries whose `op` is a lambda or wrapper that reorders arguments or calls several operators
 * (common_methods_invocations.py): the same calls, as a user would type them in aten-ts.
 */
const ADAPTERS: Record<string, (c: Call) => unknown> = {
  // op=lambda self, condition, other, **kwargs: torch.where(condition, self, other, **kwargs)
  where: (c) => fn('where')(...withKw([c.args[0], c.input, c.args[1]], c.kwargs)),
  // op=lambda x: x.T / x.mT / x.H / x.mH: Tensor properties (torch.T does not exist)
  T: (c) => (c.input as Tensor).T,
  mT: (c) => (c.input as Tensor).mT,
  H: (c) => (c.input as Tensor).H,
  mH: (c) => (c.input as Tensor).mH,
  // op=lambda a, b, driver: torch.linalg.lstsq(a, b, driver=driver)[:2]
  'linalg.lstsq.grad_oriented': (c) => {
    const [b, driver] = c.args;
    const kw = c.kwargs as { driver?: string | null };
    const d = driver !== undefined ? (driver as string | null) : (kw.driver ?? null);
    return (torch.linalg.lstsq(c.input as Tensor, b as Tensor, { driver: d }) as Tensor[]).slice(0, 2);
  },
  // op=lambda tensors, equation: torch.einsum(equation, tensors)
  einsum: (c) => fn('einsum')(c.args[0], c.input),
  // op=lambda inp, *args, **kwargs: wrapper_set_seed(torch.multinomial, inp, *args, **kwargs) (seed 42)
  multinomial: (c) => {
    torch.manualSeed(42);
    return fn('multinomial')(c.input, ...withKw(c.args, c.kwargs));
  },
  // op=lambda x, n, **kwargs: torch.polygamma(n, x, **kwargs)
  polygamma: (c) => {
    const { n, ...kw } = c.kwargs as Record<string, unknown>;
    return n === undefined
      ? fn('polygamma')(...withKw([c.args[0], c.input, ...c.args.slice(1)], kw))
      : fn('polygamma')(...withKw([n, c.input, ...c.args], kw));
  },
  // op=lambda x, n, **kwargs: torch.special.polygamma(n, x, **kwargs)
  'special.polygamma': (c) => {
    const { n, ...kw } = c.kwargs as Record<string, unknown>;
    const f = namespaced('special.polygamma') as Fn;
    return n === undefined ? f(...withKw([c.args[0], c.input, ...c.args.slice(1)], kw)) : f(...withKw([n, c.input, ...c.args], kw));
  },
  // linalg.pinv's variant "singular": op=lambda a, b: torch.linalg.pinv(a @ b.mT)
  'linalg.pinv.singular': (c) => (namespaced('linalg.pinv') as Fn)(fn('matmul')(c.input, (c.args[0] as Tensor).mT)),
  // op=lambda inp, *args, **kwargs: wrapper_set_seed(torch.Tensor.<X>_, inp, *args, **kwargs) (seed 42; the
  // generator's SEEDED_METHODS)
  cauchy: (c) => seededMethod('cauchy_', c),
  exponential: (c) => seededMethod('exponential_', c),
  geometric: (c) => seededMethod('geometric_', c),
  log_normal: (c) => seededMethod('log_normal_', c),
  uniform: (c) => seededMethod('uniform_', c),
  'normal.in_place': (c) => seededMethod('normal_', c),
  // op=lambda std, mean, *args, **kwargs: wrapper_set_seed(torch.normal, mean, std, *args, **kwargs)
  'normal.number_mean': (c) => {
    torch.manualSeed(42);
    return fn('normal')(...withKw([c.args[0], c.input, ...c.args.slice(1)], c.kwargs));
  },
  // op=lambda x, shape: x.clone().resize_(shape)
  resize_: (c) => ((c.input as Tensor).clone() as unknown as { resize_: Fn }).resize_(c.args[0]),
  // op=lambda x, other: torch.resize_as_(x.clone(), other)
  resize_as_: (c) => fn('resize_as_')((c.input as Tensor).clone(), c.args[0]),
  // op=torch.Tensor.__getitem__: `x[i, j]` is `x.index([i, j])` (the generator lists the indices)
  __getitem__: (c) => (c.input as Tensor).index(c.args[0] as TensorIndex[]),
  // op=lambda x: torch.zero_(x.clone())
  zero_: (c) => fn('zero_')((c.input as Tensor).clone()),
  // op=lambda weight, idx, **kwargs: torch.nn.functional.embedding(idx, weight, **kwargs)
  'nn.functional.embedding': (c) => (torch.nn.functional.embedding as Fn)(...withKw([c.args[0], c.input], c.kwargs)),
  // op=lambda weight, idx, **kwargs: torch.nn.functional.embedding_bag(idx, weight, **kwargs)
  'nn.functional.embedding_bag': (c) => (torch.nn.functional.embedding_bag as Fn)(...withKw([c.args[0], c.input], c.kwargs)),
  // max_pool2d_backward: F.max_pool2d_with_indices, then aten.max_pool2d_with_indices_backward of ones_like(out)
  max_pool2d_with_indices_backward: (c) => {
    const k = { kernel_size: [], stride: [], padding: [0], dilation: [1], ceil_mode: false, ...c.kwargs };
    const [out, indices] = torch.nn.functional.max_pool2d_with_indices(c.input as Tensor, ...(c.args as []), {
      ...k,
      return_indices: true,
    });
    const stride = k.stride ?? k.kernel_size;
    return fn('max_pool2d_with_indices_backward')(
      fn('ones_like')(out),
      c.input,
      k.kernel_size,
      stride,
      k.padding,
      k.dilation,
      k.ceil_mode,
      indices,
    );
  },
};

function seededMethod(name: string, c: Call): unknown {
  torch.manualSeed(42);
  const m = (c.input as unknown as Record<string, unknown>)[name];
  if (typeof m !== 'function') throw new Error(`aten-ts has no Tensor.${name}`);
  return (m as Fn).apply(c.input, withKw(c.args, c.kwargs));
}

/** `linalg.svd` → torch.linalg.svd (op_db's nested namespaces: linalg, special, fft, masked, signal.windows). */
function namespaced(call: string): unknown {
  if (!call.includes('.')) return undefined;
  let o: unknown = FULL;
  for (const part of call.split('.')) o = (o as Record<string, unknown> | undefined)?.[part];
  return o;
}

/** The aten-ts callable for an OpInfo entry: torch.nn.functional.X, torch.X, torch.<namespace>.X, or the Tensor method X. */
export function invoke(op: OpEntry, c: Call): unknown {
  const adapter = ADAPTERS[op.key] ?? ADAPTERS[op.name];
  if (adapter !== undefined) return adapter(c);
  const rest = Object.keys(c.kwargs).length > 0 ? [...c.args, c.kwargs] : c.args;
  const nn = (T.nn as { functional?: Record<string, unknown> } | undefined)?.functional;
  // torch.X first; then what only the package's full namespace has (torch.complex, torch.nn.functional.X)
  const f =
    (op.name.startsWith('nn.functional.') ? nn?.[op.call] : undefined) ??
    T[op.call] ??
    (op.name.startsWith('nn.functional.') ? FULL_NN_F[op.call] : FULL[op.call]) ??
    namespaced(op.call);
  if (typeof f === 'function') return (f as Fn)(c.input, ...rest);
  // OpInfo's `op=torch.Tensor.X` is an unbound method: its error inputs call it with a self that is not a
  // tensor (`torch.Tensor.__radd__(2, t)`), as `Tensor.prototype.X.call(2, t)` does here
  const m = (Tensor.prototype as unknown as Record<string, unknown>)[op.call];
  if (typeof m === 'function') return (m as Fn).apply(c.input, rest);
  throw new Error(`aten-ts has no torch.${op.call} or Tensor.${op.call}`);
}
