import { afterEach, describe, expect, it } from 'vitest';
import { DispatchKey, DispatchKeySet, afterAutogradKeyset } from '../../src/c10/index.js';
import {
  AutoDispatchBelowAutograd,
  Dispatcher,
  ExcludeDispatchKeyGuard,
  IncludeDispatchKeyGuard,
  KernelFunction,
  Library,
  NotImplementedError,
  addDispatchObserver,
  setDispatchTraceEnabled,
  setDispatchTraceSink,
  tlsLocalDispatchKeySet,
  withGuard,
  type UnboxedKernel,
} from '../../src/dispatch/index.js';
import { FakeTensor, cpuTensor } from './helpers.js';

function setup() {
  const warnings: string[] = [];
  const d = Dispatcher.withBuiltinFallbacks({ warn: (m) => warnings.push(m) });
  const lib = new Library('FRAGMENT', 'myops', undefined, { dispatcher: d });
  return { d, lib, warnings };
}

const metaTensor = () => new FakeTensor([DispatchKey.Meta, DispatchKey.ADInplaceOrView, DispatchKey.AutogradMeta], 'm');

afterEach(() => {
  setDispatchTraceEnabled(false);
});

describe('calling through the dispatcher', () => {
  it('routes a CPU call through the autograd fallback to the CPU kernel, which sees only CPU', () => {
    const { d, lib } = setup();
    lib.def('add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    const seen: string[] = [];
    lib.impl(
      'add',
      ((ks, a: FakeTensor, b: FakeTensor, alpha: number) => {
        seen.push(ks.toString());
        return `${a.label}+${alpha}*${b.label}`;
      }) as UnboxedKernel,
      'CPU',
    );
    const op = d.findSchemaOrThrow('myops::add');
    expect(op.call(cpuTensor('a'), cpuTensor('b'), 2)).toBe('a+2*b');
    // ADInplaceOrView, BackendSelect and AutocastCPU are fallthrough (masked out); autograd redispatches below.
    expect(seen).toEqual(['DispatchKeySet(CPU)']);
    expect(op.computeDispatchKeySet(cpuTensor(), cpuTensor(), 1).toString()).toBe('DispatchKeySet(CPU, AutogradCPU)');
  });

  it('gives an Autograd kernel the full key set, and redispatch goes below it', () => {
    const { d, lib } = setup();
    lib.def('mul(Tensor self, Tensor other) -> Tensor');
    const op = d.findSchemaOrThrow('myops::mul');
    const trail: string[] = [];
    lib.impl(
      'mul',
      (ks, a, b) => {
        trail.push(`autograd ${ks}`);
        return op.redispatch(ks.and(afterAutogradKeyset), a, b);
      },
      'Autograd',
    );
    lib.impl(
      'mul',
      (ks) => {
        trail.push(`cpu ${ks}`);
        return 42;
      },
      'CPU',
    );
    expect(op.call(cpuTensor(), cpuTensor())).toBe(42);
    expect(trail).toEqual(['autograd DispatchKeySet(CPU, AutogradCPU)', 'cpu DispatchKeySet(CPU)']);
  });

  it('dispatches on the highest backend: a Meta tensor wins over a CPU one', () => {
    const { d, lib } = setup();
    lib.def('f(Tensor a, Tensor b) -> Tensor');
    lib.impl('f', () => 'cpu', 'CPU');
    lib.impl('f', () => 'meta', 'Meta');
    const op = d.findSchemaOrThrow('myops::f');
    expect(op.call(cpuTensor(), cpuTensor())).toBe('cpu');
    expect(op.call(cpuTensor(), metaTensor())).toBe('meta');
  });

  it('extracts keys from Tensor?, Tensor[] and Tensor?[] arguments and ignores the others', () => {
    const { d, lib } = setup();
    lib.def('g(Tensor? a, Tensor[] b, Tensor?[] c, int n) -> Tensor');
    lib.impl('g', () => 'cpu', 'CPU');
    lib.impl('g', () => 'meta', 'Meta');
    const op = d.findSchemaOrThrow('myops::g');
    expect(op.call(null, [cpuTensor()], [null], 3)).toBe('cpu');
    expect(op.call(null, [cpuTensor()], [null, metaTensor()], 3)).toBe('meta');
    expect(op.call(metaTensor(), [], [], 3)).toBe('meta');
    expect(() => op.call(null, [], [], 3)).toThrow(/There were no tensor arguments to this function/);
    expect(() => op.call(null, 'oops', [], 3)).toThrow('myops::g: argument 1 (Tensor[]) expected an array of Tensors, got string');
  });

  it('counts generators on the unboxed path only, as PyTorch does', () => {
    const { d, lib } = setup();
    lib.def('r(Tensor a, Generator? g) -> Tensor');
    lib.impl('r', () => 'cpu', 'CPU');
    lib.impl('r', () => 'meta', 'Meta');
    const op = d.findSchemaOrThrow('myops::r');
    const metaGen = { keySet: DispatchKeySet.fromKey(DispatchKey.Meta) };
    expect(op.call(cpuTensor(), metaGen)).toBe('meta');
    const stack: unknown[] = [cpuTensor(), metaGen];
    op.callBoxed(stack);
    expect(stack).toEqual(['cpu']);
  });

  it('calls boxed kernels unboxed and unboxed kernels boxed, with several returns', () => {
    const { d, lib } = setup();
    lib.def('split2(Tensor a) -> (Tensor, Tensor)');
    lib.impl(
      'split2',
      KernelFunction.fromBoxed((_op, _ks, stack) => {
        const a = stack.pop();
        stack.push(a, a);
      }),
      'CPU',
    );
    lib.def('pair(Tensor a, int n) -> (Tensor, int)');
    lib.impl('pair', (_ks, a, n: number) => [a, n + 1], 'CPU');
    const x = cpuTensor();
    expect(d.findSchemaOrThrow('myops::split2').call(x)).toEqual([x, x]);
    const stack: unknown[] = ['below', x, 1];
    d.findSchemaOrThrow('myops::pair').callBoxed(stack);
    expect(stack).toEqual(['below', x, 2]);
  });

  it("raises PyTorch's missing-kernel error, listing the available keys and the computed table", () => {
    const { d, lib } = setup();
    lib.def('only_meta(Tensor a) -> Tensor');
    lib.impl('only_meta', () => 1, 'Meta', { debug: 'registered at meta.ts:1' });
    const op = d.findSchemaOrThrow('myops::only_meta');
    let error: unknown;
    try {
      op.call(cpuTensor());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotImplementedError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Could not run 'myops::only_meta' with arguments from the 'CPU' backend\. /);
    expect(message).toContain("'myops::only_meta' is only available for these backends: [Meta, BackendSelect, Python,");
    expect(message).toContain('Meta: registered at meta.ts:1 [kernel]');
  });

  it('sends a CPU call to Undefined when a CPU fallback is a fallthrough (per-backend masks)', () => {
    const { d, lib } = setup();
    lib.def('h(Tensor a) -> Tensor');
    lib.impl('h', () => 'cuda', 'CUDA');
    const fb = new Library('IMPL', '_', 'CPU', { dispatcher: d });
    fb.fallback(KernelFunction.fallthrough());
    const op = d.findSchemaOrThrow('myops::h');
    expect(() => op.call(cpuTensor())).toThrow(/There were no tensor arguments/);
    expect(op.call(new FakeTensor([DispatchKey.CUDA]))).toBe('cuda');
    fb.remove();
    expect(() => op.call(cpuTensor())).toThrow(/Could not run 'myops::h' with arguments from the 'CPU' backend/);
  });
});

describe('thread-local include/exclude sets', () => {
  it('excludes autograd below an AutoDispatchBelowAutograd guard, and restores it after', () => {
    const { d, lib } = setup();
    lib.def('k(Tensor a) -> Tensor');
    lib.impl('k', () => 'autograd', 'AutogradCPU');
    lib.impl('k', () => 'cpu', 'CPU');
    const op = d.findSchemaOrThrow('myops::k');
    const before = tlsLocalDispatchKeySet();
    expect(op.call(cpuTensor())).toBe('autograd');
    {
      using _guard = new AutoDispatchBelowAutograd();
      expect(op.call(cpuTensor())).toBe('cpu');
    }
    expect(op.call(cpuTensor())).toBe('autograd');
    expect(tlsLocalDispatchKeySet().included.equals(before.included)).toBe(true);
    expect(tlsLocalDispatchKeySet().excluded.equals(before.excluded)).toBe(true);
  });

  it('reroutes a CPU tensor to Meta under IncludeDispatchKeyGuard(Meta)', () => {
    const { d, lib } = setup();
    lib.def('m(Tensor a) -> Tensor');
    lib.impl('m', () => 'cpu', 'CPU');
    lib.impl('m', () => 'meta', 'Meta');
    const op = d.findSchemaOrThrow('myops::m');
    expect(withGuard(new IncludeDispatchKeyGuard(DispatchKey.Meta), () => op.call(cpuTensor()))).toBe('meta');
    expect(op.call(cpuTensor())).toBe('cpu');
  });

  it('restores TLS when a kernel throws, and leaves the registry unchanged', () => {
    const { d, lib } = setup();
    lib.def('boom(Tensor a) -> Tensor');
    lib.impl(
      'boom',
      () => {
        throw new RangeError('kernel failed');
      },
      'CPU',
    );
    const op = d.findSchemaOrThrow('myops::boom');
    const before = tlsLocalDispatchKeySet();
    const dumpBefore = op.dumpState() + op.dumpComputedTable();
    expect(() => withGuard(new ExcludeDispatchKeyGuard(DispatchKey.AutogradCPU), () => op.call(cpuTensor()))).toThrow('kernel failed');
    expect(tlsLocalDispatchKeySet().excluded.equals(before.excluded)).toBe(true);
    expect(op.dumpState() + op.dumpComputedTable()).toBe(dumpBefore);
    d.checkInvariants(op);
  });
});

describe('registration', () => {
  it('overrides a kernel with a warning once, and restores the previous kernel on removal', () => {
    const { d, lib, warnings } = setup();
    lib.def('o(Tensor a) -> Tensor');
    const op = d.findSchemaOrThrow('myops::o');
    const first = lib.impl('o', () => 1, 'CPU', { debug: 'first' });
    const second = lib.impl('o', () => 2, 'CPU', { debug: 'second' });
    expect(op.call(cpuTensor())).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Overriding a previously registered kernel for the same operator and the same dispatch key');
    expect(warnings[0]).toContain('  dispatch key: CPU\n  previous kernel: first\n       new kernel: second');
    lib.impl('o', () => 3, 'CPU');
    expect(warnings).toHaveLength(1);
    expect(op.dumpState()).toContain('CPU (inactive): second');
    second.remove();
    first.remove();
    expect(op.call(cpuTensor())).toBe(3);
  });

  it('records the caller as the default debug string', () => {
    const { d, lib } = setup();
    lib.def('dbg(Tensor a) -> Tensor');
    expect(d.dumpState('myops::dbg')).toMatch(/debug: registered at .*Dispatcher\.test\.ts:\d+/);
  });

  it('deregisters with `using` and deletes the operator with its last registration', () => {
    const { d } = setup();
    {
      using lib = new Library('FRAGMENT', 'tmp', undefined, { dispatcher: d });
      lib.def('t(Tensor a) -> Tensor');
      lib.def('t.two(Tensor a, Tensor b) -> Tensor');
      expect(d.getAllOpNames()).toContain('tmp::t');
      expect(d.overloadNamesOf('tmp::t')).toEqual(['', 'two']);
    }
    expect(d.getAllOpNames()).not.toContain('tmp::t');
    expect(d.overloadNamesOf('tmp::t')).toEqual([]);
    expect(d.dumpState('tmp::t')).toBe('');
  });

  it('reports missing schemas like PyTorch', () => {
    const { d, lib } = setup();
    lib.impl('undef', () => 1, 'CPU');
    expect(() => d.findSchemaOrThrow('myops::undef')).toThrow(
      'Could not find schema for myops::undef. but we found an implementation; did you forget to def() the operator?',
    );
    expect(() => d.findSchemaOrThrow('myops::nothing', 'over')).toThrow('Could not find schema for myops::nothing.over');
    expect(d.findOp('myops::undef')?.hasSchema()).toBe(false);
    expect(d.dumpState('myops::undef')).toContain('schema: (none)');
  });

  it('rejects a computed-kernel query for an alias key', () => {
    const { d, lib } = setup();
    lib.def('q(Tensor a) -> Tensor');
    expect(() => d.findSchemaOrThrow('myops::q').hasComputedKernelForDispatchKey(DispatchKey.Autograd)).toThrow(
      'Alias keys do not have runtime kernel registrations.',
    );
  });
});

describe('traces and observers', () => {
  it('prints nested [call] and [redispatch] lines', () => {
    const { d, lib } = setup();
    lib.def('tr(Tensor a) -> Tensor');
    lib.impl('tr', () => 0, 'CPU');
    const op = d.findSchemaOrThrow('myops::tr');
    const lines: string[] = [];
    const prev = setDispatchTraceSink((l) => lines.push(l));
    setDispatchTraceEnabled(true);
    try {
      op.call(cpuTensor());
    } finally {
      setDispatchTraceEnabled(false);
      setDispatchTraceSink(prev);
    }
    expect(lines).toEqual(['[call] op=[myops::tr], key=[AutogradCPU]', ' [redispatch] op=[myops::tr], key=[CPU]']);
  });

  it('calls observers around each call and stops after removal', () => {
    const { d, lib } = setup();
    lib.def('ob(Tensor a) -> Tensor');
    lib.impl('ob', () => 0, 'CPU');
    const op = d.findSchemaOrThrow('myops::ob');
    const events: string[] = [];
    const remove = addDispatchObserver({
      onEnter: (e) => events.push(`enter ${e.kind} ${e.depth}`),
      onExit: (e) => events.push(`exit ${e.kind} ${e.depth}`),
    });
    op.call(cpuTensor());
    remove();
    op.call(cpuTensor());
    expect(events).toEqual(['enter call 0', 'enter redispatch 1', 'exit redispatch 1', 'exit call 0']);
  });
});

describe('built-in fallbacks', () => {
  it("raises PyTorch's Meta error for an operator without a Meta kernel", () => {
    const { d, lib } = setup();
    lib.def('cpu_only(Tensor a) -> Tensor');
    lib.impl('cpu_only', () => 'cpu', 'CPU');
    expect(() => d.findSchemaOrThrow('myops::cpu_only').call(metaTensor())).toThrow(
      'myops::cpu_only: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel registered.',
    );
  });

  it('names the key when a call reaches a key aten-ts does not implement', () => {
    const { d, lib } = setup();
    lib.def('plain(Tensor a) -> Tensor');
    lib.impl('plain', () => 'cpu', 'CPU');
    const op = d.findSchemaOrThrow('myops::plain');
    expect(() => withGuard(new IncludeDispatchKeyGuard(DispatchKey.Functionalize), () => op.call(cpuTensor()))).toThrow(
      /myops::plain: the Functionalize dispatch key was reached/,
    );
  });
});

describe('batched registration (Note [Batched registration])', () => {
  const register = (lib: Library) => {
    lib.def('f(Tensor self) -> Tensor');
    lib.impl('f', (() => 'cpu') as UnboxedKernel, 'CPU');
    lib.impl('f', (() => 'math') as UnboxedKernel, 'CompositeImplicitAutograd');
    lib.impl('f', (() => 'autograd') as UnboxedKernel, 'Autograd');
  };

  it('defers table updates to the end of the batch, then equals registering one by one', () => {
    const one = setup();
    register(one.lib);
    const batched = setup();
    batched.d.batch(() => {
      register(batched.lib);
      // Inside the batch the live table is stale: it differs from what the registrations compute.
      expect(() => batched.d.checkInvariants('myops::f', '')).toThrow();
    });
    batched.d.checkInvariants('myops::f', '');
    expect(batched.d.dumpComputedTable('myops::f')).toBe(one.d.dumpComputedTable('myops::f'));
    expect(batched.d.findSchemaOrThrow('myops::f', '').call(cpuTensor())).toBe('autograd');
  });

  it('recomputes what was registered even when the batch throws, and nests', () => {
    const { d, lib } = setup();
    expect(() =>
      d.batch(() => {
        d.batch(() => register(lib));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(d.findSchemaOrThrow('myops::f', '').call(cpuTensor())).toBe('autograd');
  });
});
