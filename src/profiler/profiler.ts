// `torch.profiler.profile` and `record_function`: per-operator CPU time with input shapes, key averages, the
// table PyTorch prints, the Chrome trace format, and (aten-ts only) the dispatch overhead of each call split into
// its phases. Mirrors torch/profiler/profiler.py and torch/autograd/profiler.py; the events come from the
// dispatcher's observers (src/dispatch/debug.ts), PyTorch's RecordFunction callbacks.

import { DispatchKey, toFunctionalityKey } from '../c10/DispatchKey.js';
import { parseKw } from '../c10/Kwargs.js';
import { addDispatchObserver, now, setDispatchPhaseTiming, type DispatchEvent } from '../dispatch/debug.js';
import { Tensor } from '../tensor/Tensor.js';
import { overheadTable } from './overhead.js';
import { FunctionEvent, buildTable, keyAverages, type FunctionEventAvg, type TableOptions } from './profiler_util.js';

/** `torch.profiler.ProfilerActivity`: aten-ts has CPU activity only. */
export const ProfilerActivity = { CPU: 'CPU', CUDA: 'CUDA', XPU: 'XPU', MTIA: 'MTIA' } as const;
export type ProfilerActivity = (typeof ProfilerActivity)[keyof typeof ProfilerActivity];

/** `torch.profiler.profile(...)`'s keyword arguments (`activities`, `record_shapes`, ...). */
export interface ProfileOptions {
  /** Which activities to record (default `[ProfilerActivity.CPU]`; only CPU exists in aten-ts). */
  activities?: readonly ProfilerActivity[];
  /** Record the sizes of each call's tensor arguments (`Input Shapes`, `group_by_input_shape`). */
  record_shapes?: boolean;
  /** Accepted for PyTorch's scripts; aten-ts records no Python stacks (the events carry none). */
  with_stack?: boolean;
  /**
   * aten-ts's extension: time each call's dispatch phases (argument parsing, key extraction, table lookup,
   * autograd, kernel) for `dispatch_overhead_table()`. See Note [Dispatch phase timing].
   */
  dispatch_overhead?: boolean;
}

/** Writes a Chrome trace to a file path: installed by the Node entry (src/node.ts); browsers have none. */
let traceFileWriter: ((path: string, text: string) => void) | null = null;

/** Installs the function `export_chrome_trace(path)` writes files with (the Node entry does this). */
export function setTraceFileWriter(writer: ((path: string, text: string) => void) | null): void {
  traceFileWriter = writer;
}

/** The running profiler (at most one), which record_function ranges go to. */
const running: ProfileClass[] = [];

const msToUs = (ms: number): number => ms * 1000;

/** Keys whose own time is autograd's bookkeeping (graph recording, the autograd fallback's redispatch). */
function isAutogradKey(k: DispatchKey): boolean {
  const f = toFunctionalityKey(k);
  return (
    f === DispatchKey.AutogradFunctionality ||
    k === DispatchKey.AutogradOther ||
    k === DispatchKey.AutogradNestedTensor ||
    k === DispatchKey.ADInplaceOrView
  );
}

function shapesOf(args: readonly unknown[]): number[][] {
  return args.map((a) => {
    if (a instanceof Tensor) return a.shape.slice();
    if (Array.isArray(a) && a.length > 0 && a.every((t) => t instanceof Tensor)) return [a.length];
    return [];
  });
}

/** One open frame of the observer: a call, a redispatch below it, or a record_function block. */
interface Frame {
  readonly event: FunctionEvent | null;
  /** The operator call whose dispatch chain this frame belongs to (itself for a call). */
  readonly owner: FunctionEvent | null;
  readonly key: DispatchKey;
  readonly start: number;
  childMs: number;
}

/**
 * `torch.profiler.profile(...)`: records every operator call between `start()` and `stop()` (or inside a
 * `using` block) with its CPU time and, with `record_shapes`, its input shapes.
 *
 * @example
 * {
 *   using prof = torch.profiler.profile({ record_shapes: true }).start();
 *   model.call(x);
 * }
 * console.log(prof.key_averages().table({ sort_by: 'cpu_time_total', row_limit: 10 }));
 */
class ProfileClass {
  readonly record_shapes: boolean;
  readonly with_stack: boolean;
  readonly dispatch_overhead: boolean;
  /** Every recorded event, in start order. */
  private readonly recorded: FunctionEvent[] = [];
  private readonly stack: Frame[] = [];
  private remove: (() => void) | null = null;
  private startMs = 0;
  private stopped = false;

  constructor(options: ProfileOptions = {}) {
    const o = parseKw('profile', options, ['activities', 'record_shapes', 'with_stack', 'dispatch_overhead']);
    const activities = (o.activities ?? [ProfilerActivity.CPU]) as readonly unknown[];
    for (const a of activities) {
      if (a !== ProfilerActivity.CPU) {
        throw new Error(`profile(): activity ${String(a)} is not available in aten-ts (it has CPU activity only)`);
      }
    }
    this.record_shapes = o.record_shapes === true;
    this.with_stack = o.with_stack === true;
    this.dispatch_overhead = o.dispatch_overhead === true;
  }

  /** Starts recording; returns this (so `using prof = profile().start()` works). */
  start(): this {
    if (running.length > 0) throw new Error('profile.start(): a profiler is already running; stop it first');
    if (this.remove !== null || this.stopped) throw new Error('profile.start(): this profiler has already been started');
    running.push(this);
    this.startMs = now();
    if (this.dispatch_overhead) setDispatchPhaseTiming(true);
    this.remove = addDispatchObserver({ onEnter: (e) => this.#onDispatchEnter(e), onExit: () => this.#onDispatchExit() });
    return this;
  }

  /** Stops recording. Ranges still open (an exception unwound through them) are closed now. */
  stop(): void {
    if (this.remove === null) return;
    this.remove();
    this.remove = null;
    if (this.dispatch_overhead) setDispatchPhaseTiming(false);
    while (this.stack.length > 0) this.#onDispatchExit();
    this.stopped = true;
    running.length = 0;
  }

  /** `with profile() as prof:` — `using prof = torch.profiler.profile().start()`. */
  [Symbol.dispose](): void {
    this.stop();
  }

  /** Runs `fn` while recording (Python's `with` block). */
  run<T>(fn: () => T): T {
    this.start();
    try {
      return fn();
    } finally {
      this.stop();
    }
  }

  // The dispatcher's observer (addDispatchObserver): private, so `enter` keeps the one meaning it has on the
  // modes (activate), and a profile has no public hook a caller could confuse with it.
  #onDispatchEnter(e: DispatchEvent): void {
    const t = now();
    const parent = this.stack[this.stack.length - 1];
    if (e.kind === 'call' || e.kind === 'callBoxed') {
      const name = e.op.includes('.') ? e.op.slice(0, e.op.indexOf('.')) : e.op;
      const overload = e.op.includes('.') ? e.op.slice(e.op.indexOf('.') + 1) : '';
      const ev = new FunctionEvent(name, overload, this.record_shapes ? shapesOf(e.args) : null, msToUs(t), this.#parentEvent(), false);
      ev.phases.parse = msToUs(e.parseMs);
      ev.phases.extract = msToUs(e.extractMs);
      ev.phases.lookup = msToUs(e.lookupMs);
      ev.cpu_parent?.cpu_children.push(ev);
      this.recorded.push(ev);
      this.stack.push({ event: ev, owner: ev, key: e.key, start: t, childMs: 0 });
    } else {
      const owner = parent?.owner ?? null;
      if (owner !== null) owner.phases.lookup += msToUs(e.lookupMs);
      this.stack.push({ event: null, owner, key: e.key, start: t, childMs: 0 });
    }
  }

  #onDispatchExit(): void {
    const t = now();
    const f = this.stack.pop();
    if (f === undefined) return;
    const total = t - f.start;
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) parent.childMs += total;
    if (f.event !== null) f.event.end = msToUs(t);
    if (f.owner !== null && f.event?.is_user_annotation !== true) {
      const self = msToUs(total - f.childMs);
      if (isAutogradKey(f.key)) f.owner.phases.autograd += self;
      else f.owner.phases.kernel += self;
    }
  }

  #parentEvent(): FunctionEvent | null {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const ev = (this.stack[i] as Frame).event;
      if (ev !== null) return ev;
    }
    return null;
  }

  /** @internal Opens a user range (record_function). */
  _push_range(name: string): void {
    const t = now();
    const ev = new FunctionEvent(name, '', this.record_shapes ? [] : null, msToUs(t), this.#parentEvent(), true);
    ev.cpu_parent?.cpu_children.push(ev);
    this.recorded.push(ev);
    this.stack.push({ event: ev, owner: null, key: DispatchKey.Undefined, start: t, childMs: 0 });
  }

  /** Closes the innermost user range named `name` (and anything left open inside it). */
  /** @internal */
  _pop_range(ev: string): void {
    while (this.stack.length > 0) {
      const top = this.stack[this.stack.length - 1] as Frame;
      this.#onDispatchExit();
      if (top.event?.is_user_annotation === true && top.event.name === ev) return;
    }
  }

  /** `prof.events()`: every recorded event, in start order. */
  events(): readonly FunctionEvent[] {
    return this.recorded;
  }

  /** `prof.key_averages({ group_by_input_shape })`: events averaged per name (and input shapes). */
  key_averages(options: { group_by_input_shape?: boolean } = {}): KeyAverages {
    const o = parseKw('key_averages', options, ['group_by_input_shape']);
    if (o.group_by_input_shape === true && !this.record_shapes) {
      throw new Error('key_averages(): group_by_input_shape needs profile({ record_shapes: true })');
    }
    return new KeyAverages(keyAverages(this.recorded, o.group_by_input_shape === true));
  }

  /**
   * `prof.export_chrome_trace(path)`: the Chrome trace event format (`traceEvents` of `ph: 'X'` complete
   * events with `ts`/`dur` in microseconds, pid/tid), which chrome://tracing and https://ui.perfetto.dev open.
   * Without a path (or in a browser) it returns the JSON text; with one, the Node entry writes the file.
   */
  export_chrome_trace(path?: string): string {
    const origin = typeof performance.timeOrigin === 'number' ? performance.timeOrigin : 0;
    const base = msToUs(origin);
    const traceEvents: object[] = [
      { ph: 'M', name: 'process_name', pid: 1, tid: 0, args: { name: 'aten-ts' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'main thread' } },
    ];
    for (const e of this.recorded) {
      traceEvents.push({
        ph: 'X',
        cat: e.is_user_annotation ? 'user_annotation' : 'cpu_op',
        name: e.name,
        pid: 1,
        tid: 1,
        ts: base + e.start,
        dur: e.cpu_time_total,
        args: e.input_shapes === null ? {} : { 'Input Dims': e.input_shapes },
      });
    }
    const text = JSON.stringify({ schemaVersion: 1, displayTimeUnit: 'ms', traceEvents }, null, 1);
    if (path !== undefined) {
      if (traceFileWriter === null) {
        throw new Error('export_chrome_trace(path): writing files needs the Node entry; call it without a path for the JSON text');
      }
      traceFileWriter(path, text);
    }
    return text;
  }

  /** aten-ts: the dispatch overhead of each operator's calls, split by phase. See overhead.ts. */
  dispatch_overhead_table(options: { row_limit?: number } = {}): string {
    if (!this.dispatch_overhead) throw new Error('dispatch_overhead_table() needs profile({ dispatch_overhead: true })');
    return overheadTable(
      this.recorded.filter((e) => !e.is_user_annotation),
      options.row_limit ?? 100,
    );
  }
}

Object.defineProperty(ProfileClass, 'name', { value: 'profile' });

/** A `torch.profiler.profile`. */
export type profile = ProfileClass;

// Note [profile() without new]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Python constructs a profiler by calling the class, `torch.profiler.profile(record_shapes=True)`, and PyTorch's
// examples read `with torch.profiler.profile() as prof:`. The export is the class behind a Proxy whose `apply`
// trap constructs it, so `torch.profiler.profile({ record_shapes: true })` and `new torch.profiler.profile(...)`
// both give a profile, `instanceof profile` holds, and `profile.name` is 'profile'.

/**
 * `torch.profiler.profile(options)`: records every operator call between `start()` and `stop()` (or inside a
 * `using` block); callable with or without `new` (Note [profile() without new]).
 */
export const profile = new Proxy(ProfileClass, {
  apply: (target, _this, args: [ProfileOptions?]) => new target(...args),
}) as typeof ProfileClass & ((options?: ProfileOptions) => ProfileClass);

/** The rows of `key_averages()`, with `.table()`. */
export class KeyAverages extends Array<FunctionEventAvg> {
  constructor(rows: readonly FunctionEventAvg[] | number = []) {
    if (typeof rows === 'number') super(rows);
    else {
      super();
      this.push(...rows);
    }
  }

  /** `table({ sort_by, row_limit })`: the text PyTorch prints, same columns and layout. */
  table(options: TableOptions = {}): string {
    parseKw('table', options, ['sort_by', 'row_limit', 'max_name_column_width', 'max_shapes_column_width', 'header']);
    return buildTable([...this], options);
  }
}

/**
 * `torch.profiler.record_function(name)`: a named range in the profile (a `user_annotation` in the trace)
 * around a block, `using _ = record_function('step')`; or `record_function('step', () => ...)`.
 */
export function record_function(name: string): Disposable;
export function record_function<T>(name: string, fn: () => T): T;
export function record_function<T>(name: string, fn?: () => T): Disposable | T {
  if (typeof name !== 'string') throw new TypeError(`record_function(): name must be a string, got ${typeof name}`);
  const prof = running[0];
  prof?._push_range(name);
  const close = () => prof?._pop_range(name);
  if (fn === undefined) return { [Symbol.dispose]: close };
  try {
    return fn();
  } finally {
    close();
  }
}
