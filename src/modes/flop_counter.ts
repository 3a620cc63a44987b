// FlopCounterMode: counts the floating-point operations of matrix products and convolutions (forward and
// backward) per operator and per nn.Module. Mirrors torch/utils/flop_counter.py: the same formulas, the same
// `get_flop_counts()` layout (module name → operator packet → FLOPs; `Global` holds everything) and the same
// `get_table()` text.

import { parseKw, type WithCamelKeys } from '../c10/Kwargs.js';
import type { DispatchKwargs } from './_python_dispatch.js';
import { TorchDispatchMode } from './_python_dispatch.js';
import type { OpOverload } from '../library/ops.js';
import { ModuleTracker } from './module_tracker.js';
import { Tensor } from '../tensor/Tensor.js';

type Shape = readonly number[];
/** A FLOP formula: the shapes of the tensor arguments (other arguments as they are) and `out_shape`. */
export type FlopFormula = (args: readonly unknown[], kwargs: DispatchKwargs, outShape: unknown) => number;

const prod = (s: Shape): number => s.reduce((a, b) => a * b, 1);

function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

/** `mm_flop`: m * n * 2k. */
export function mmFlop(a: Shape, b: Shape): number {
  const [m, k] = a as [number, number];
  const [k2, n] = b as [number, number];
  check(k === k2, `matmul: inner dimensions must match (k == k2), got ${k} and ${k2}`);
  return m * n * 2 * k;
}

/** `bmm_flop`: b * m * n * 2k. */
export function bmmFlop(a: Shape, b: Shape): number {
  const [bs, m, k] = a as [number, number, number];
  const [bs2, k2, n] = b as [number, number, number];
  check(bs === bs2, `bmm: batch dimensions must match (b == b2), got ${bs} and ${bs2}`);
  check(k === k2, `bmm: inner dimensions must match (k == k2), got ${k} and ${k2}`);
  return bs * m * n * 2 * k;
}

/** `conv_flop_count`: prod(conv_shape) * prod(filter) * batch * c_out * c_in * 2 (bias not counted). */
export function convFlopCount(x: Shape, w: Shape, out: Shape, transposed = false): number {
  const batch = x[0] as number;
  const convShape = (transposed ? x : out).slice(2);
  const [cOut, cIn, ...filter] = w as number[];
  return prod(convShape) * prod(filter) * batch * (cOut as number) * (cIn as number) * 2;
}

/** `sdpa_flop_count`: the two batched products of attention. */
export function sdpaFlopCount(q: Shape, k: Shape, v: Shape): number {
  const [b, hq, sq, dq] = q as number[] as [number, number, number, number];
  const [, , sk] = k as number[] as [number, number, number, number];
  const dv = v[3] as number;
  return bmmFlop([b * hq, sq, dq], [b * hq, dq, sk]) + bmmFlop([b * hq, sq, sk], [b * hq, sk, dv]);
}

const shapeOf = (v: unknown): unknown => (v instanceof Tensor ? v.sizes : Array.isArray(v) ? v.map(shapeOf) : v);
const tr = (s: Shape): number[] => [s[1] as number, s[0] as number, ...s.slice(2)];

// Note [FLOPs of aten-ts's conv2d backward]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's convolution backward is one operator, convolution_backward, counted by output_mask: the input
// gradient as a transposed convolution of grad_output with the weight, the weight gradient as a convolution
// of the input with grad_output. aten-ts computes the two with two operators (Note [conv2d backward as
// operators]); each is counted with the matching half of PyTorch's formula under PyTorch's key
// `aten.convolution_backward`, so a model's counts equal PyTorch's. (The input gradient of a transposed
// convolution is a forward convolution here, counted as `aten.convolution`.)

/** The built-in formulas, by the operator packet's printed name (`aten.mm`), as flop_counter's registry. */
export const flop_registry: ReadonlyMap<string, { key: string; formula: FlopFormula }> = new Map<
  string,
  { key: string; formula: FlopFormula }
>([
  ['aten.mm', { key: 'aten.mm', formula: (a) => mmFlop(a[0] as Shape, a[1] as Shape) }],
  ['aten.addmm', { key: 'aten.addmm', formula: (a) => mmFlop(a[1] as Shape, a[2] as Shape) }],
  ['aten.bmm', { key: 'aten.bmm', formula: (a) => bmmFlop(a[0] as Shape, a[1] as Shape) }],
  ['aten.baddbmm', { key: 'aten.baddbmm', formula: (a) => bmmFlop(a[1] as Shape, a[2] as Shape) }],
  ...['aten.convolution', 'aten._convolution'].map(
    (name) =>
      [
        name,
        { key: name, formula: ((a, _k, out) => convFlopCount(a[0] as Shape, a[1] as Shape, out as Shape, a[6] === true)) as FlopFormula },
      ] as const,
  ),
  [
    'aten.convolution_backward',
    {
      key: 'aten.convolution_backward',
      formula: (a, _k, out) => {
        const [gradOut, x, w] = a as [Shape, Shape, Shape];
        const transposed = a[7] === true;
        const mask = a[10] as boolean[];
        const outs = out as Shape[];
        let flops = 0;
        if (mask[0]) flops += convFlopCount(gradOut, w, outs[0] as Shape, !transposed);
        if (mask[1]) {
          const gw = outs[1] as Shape;
          flops += transposed ? convFlopCount(tr(gradOut), tr(x), tr(gw)) : convFlopCount(tr(x), tr(gradOut), tr(gw));
        }
        return flops;
      },
    },
  ],
  // See Note [FLOPs of aten-ts's conv2d backward].
  ...['2d', '3d'].flatMap((d) => [
    [
      `aten._conv${d}_backward_input`,
      {
        key: 'aten.convolution_backward',
        formula: ((a, _k, out) => convFlopCount(a[0] as Shape, a[2] as Shape, out as Shape, true)) as FlopFormula,
      },
    ] as const,
    [
      `aten._conv${d}_backward_weight`,
      {
        key: 'aten.convolution_backward',
        formula: ((a, _k, out) => convFlopCount(tr(a[1] as Shape), tr(a[0] as Shape), tr(out as Shape))) as FlopFormula,
      },
    ] as const,
  ]),
  ...['aten._scaled_dot_product_efficient_attention', 'aten._scaled_dot_product_flash_attention'].map(
    (name) => [name, { key: name, formula: ((a) => sdpaFlopCount(a[0] as Shape, a[1] as Shape, a[2] as Shape)) as FlopFormula }] as const,
  ),
]);

/** `FlopCounterMode(mods=None, depth=2, display=True, custom_mapping=None)`'s keyword arguments. */
export interface FlopCounterModeOptions {
  /** Ignored, as in PyTorch 2.x (modules are tracked globally); kept for the signature. */
  readonly mods?: unknown;
  /** Module depth of `get_table()` (default 2). */
  readonly depth?: number;
  /** Print the table on `exit()` (default true). */
  readonly display?: boolean;
  /** Extra formulas by packet name (`aten.add`): shapes in, FLOPs out. */
  readonly custom_mapping?: Record<string, FlopFormula>;
}

const OPTION_KEYS = ['mods', 'depth', 'display', 'custom_mapping'];
const SUFFIXES = ['', 'K', 'M', 'B', 'T'];

/**
 * `torch.utils.flop_counter.FlopCounterMode`.
 *
 * @example
 * const counter = new FlopCounterMode({ display: false });
 * counter.run(() => model.call(x).sum().backward());
 * counter.get_total_flops();            // every FLOP of the forward and the backward
 * counter.get_flop_counts()['LeNet.conv1']; // { 'aten.convolution': ..., 'aten.convolution_backward': ... }
 * console.log(counter.get_table());
 */
export class FlopCounterMode implements Disposable {
  flop_counts = new Map<string, Map<string, number>>();
  readonly depth: number;
  readonly display: boolean;
  private readonly registry: Map<string, { key: string; formula: FlopFormula }>;
  private tracker: ModuleTracker | null = null;
  private mode: FlopDispatchMode | null = null;

  constructor(options: WithCamelKeys<FlopCounterModeOptions> = {}) {
    options = parseKw('FlopCounterMode', options, OPTION_KEYS) as FlopCounterModeOptions;
    this.depth = options.depth ?? 2;
    this.display = options.display ?? true;
    this.registry = new Map(flop_registry);
    for (const [name, formula] of Object.entries(options.custom_mapping ?? {})) this.registry.set(name, { key: name, formula });
  }

  /** `get_total_flops()`: the sum of `Global`'s counts. */
  get_total_flops(): number {
    let n = 0;
    for (const v of this.flop_counts.get('Global')?.values() ?? []) n += v;
    return n;
  }

  /** `get_flop_counts()`: module name → operator packet name → FLOPs. */
  get_flop_counts(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [mod, ops] of this.flop_counts) out[mod] = Object.fromEntries(ops);
    return out;
  }

  /** `get_table(depth)`: PyTorch's table (tabulate's "simple" format), submodules up to `depth`. */
  get_table(depth: number | null = this.depth): string {
    const maxDepth = depth ?? 999999;
    const globalFlops = this.get_total_flops();
    const suffix = SUFFIXES[Math.max(0, Math.min(SUFFIXES.length - 1, Math.floor((String(globalFlops).length - 2) / 3)))] as string;
    const fmt = (n: number): string => `${(n / 1000 ** SUFFIXES.indexOf(suffix)).toFixed(3)}${suffix}`;
    const pct = (n: number): string => (globalFlops === 0 ? '0%' : `${((n / globalFlops) * 100).toFixed(2)}%`);
    let subsumed = false;
    const processMod = (name: string, d: number): string[][] => {
      const ops = this.flop_counts.get(name) ?? new Map<string, number>();
      let total = 0;
      for (const v of ops.values()) total += v;
      subsumed ||= total >= globalFlops;
      const pad = ' '.repeat(d);
      return [[pad + name, fmt(total), pct(total)], ...[...ops].map(([k, v]) => [`${pad} - ${k}`, fmt(v), pct(v)])];
    };
    let rows: string[][] = [];
    for (const mod of [...this.flop_counts.keys()].sort(pythonStringCompare)) {
      if (mod === 'Global') continue;
      const modDepth = mod.split('.').length;
      if (modDepth > maxDepth) continue;
      rows.push(...processMod(mod, modDepth - 1));
    }
    if (this.flop_counts.has('Global') && !subsumed) {
      for (const r of rows) r[0] = ` ${r[0] as string}`;
      rows = [...processMod('Global', 0), ...rows];
    }
    if (rows.length === 0) rows = [['Global', '0', '0%']];
    return tabulateSimple(['Module', 'FLOP', '% Total'], rows, ['left', 'right', 'right']);
  }

  /** `__enter__`: clears the counts and starts counting. Not reentrant (as in PyTorch). */
  enter(): this {
    this.flop_counts.clear();
    this.tracker = new ModuleTracker().enter();
    this.mode = new FlopDispatchMode(this).enter();
    return this;
  }

  /** `__exit__`: stops counting; prints the table when `display`. */
  exit(): void {
    if (this.mode === null) throw new Error('Internal error: FlopCounter.__exit__ called but mode is None');
    this.mode.exit();
    this.mode = null;
    this.tracker?.exit();
    this.tracker = null;
    if (this.display) console.log(this.get_table(this.depth));
  }

  [Symbol.dispose](): void {
    this.exit();
  }

  /** `with counter: fn()`. */
  run<T>(fn: () => T): T {
    this.enter();
    try {
      return fn();
    } finally {
      this.exit();
    }
  }

  /** `_count_flops`: adds the FLOPs of one call to every running module's counts. */
  _count_flops(func: OpOverload, out: unknown, args: readonly unknown[], kwargs: DispatchKwargs): void {
    const entry = this.registry.get(String(func.overloadpacket));
    if (entry === undefined) return;
    const flops = entry.formula(args.map(shapeOf), kwargs, shapeOf(out));
    for (const parent of this.tracker?.parents ?? ['Global']) {
      let ops = this.flop_counts.get(parent);
      if (ops === undefined) {
        ops = new Map();
        this.flop_counts.set(parent, ops);
      }
      ops.set(entry.key, (ops.get(entry.key) ?? 0) + flops);
    }
  }
}

/** `_FlopCounterMode`: the dispatch mode behind FlopCounterMode. */
class FlopDispatchMode extends TorchDispatchMode {
  constructor(private readonly counter: FlopCounterMode) {
    super();
  }

  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    const out = func(...args, kwargs);
    this.counter._count_flops(func, out, args, kwargs);
    return out;
  }
}

/** Python's `sorted` order of str (code points), not localeCompare. */
function pythonStringCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * tabulate's "simple" format with headers: columns 2 spaces apart, each at least its header plus tabulate's
 * MIN_PADDING (2) wide, dashes under each header, whitespace kept (PRESERVE_WHITESPACE).
 */
function tabulateSimple(headers: string[], rows: string[][], align: ('left' | 'right')[]): string {
  const widths = headers.map((h, c) => Math.max(h.length + 2, ...rows.map((r) => (r[c] as string).length)));
  const cell = (s: string, c: number): string => (align[c] === 'left' ? s.padEnd(widths[c] as number) : s.padStart(widths[c] as number));
  const line = (r: string[]): string => r.map(cell).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
