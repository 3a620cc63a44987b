// torch.library and torch.ops against PyTorch 2.13 (test/golden/library.json from tools/golden/gen_library.py):
// Library / define / impl misuse, op objects and argument binding, custom_op with register_fake /
// register_autograd / register_kernel, opcheck, the autograd fallback mode.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Dispatcher, Library as CppLibrary, Tensor, torch } from '../../src/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import type { OpOverload } from '../../src/library/index.js';
import { loadGolden } from '../golden.js';

interface Golden {
  errors: Record<string, { type: string; error: string }>;
  ops: Record<string, unknown>;
  fallback: { default_mode: string; warning: string; grad: number[] };
  opcheck_keys: string[];
  custom_op: { repr: string; schema: string; x: number[]; k: number; y: number[]; grad_x: number[]; grad_fn: string };
}
const golden = loadGolden<Golden>('library.json');
const { library, ops } = torch;

/** The error `fn` throws, checked against the golden case: same text (from its start) and matching JS type. */
function expectError(id: string, fn: () => unknown, normalize: (m: string) => string = (m) => m): Error {
  const g = golden.errors[id]!;
  let caught: unknown = null;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `${id} should throw`).toBeInstanceOf(Error);
  const e = caught as Error;
  expect(normalize(e.message).startsWith(g.error), `${id}:\n  got      ${e.message}\n  expected ${g.error}`).toBe(true);
  if (g.type === 'TypeError') expect(e).toBeInstanceOf(TypeError);
  if (g.type === 'OpCheckError') expect(e).toBeInstanceOf(library.OpCheckError);
  return e;
}

const f32 = (values: number[], options: { requires_grad?: boolean } = {}): Tensor => torch.tensor(values, { dtype: 'float32', ...options });
const values = (t: unknown): number[] => (t as Tensor).tolist() as number[];

const libs: { _destroy(): void }[] = [];
afterAll(() => {
  for (const l of libs.splice(0).reverse()) l._destroy();
});

// pmyops::foo as the golden script defines it, registered once for the file.
const pmyops = new library.Library('pmyops', 'DEF');
libs.push(pmyops);
const defineResult = pmyops.define('foo(Tensor x, Scalar alpha=2.0, *, bool neg=False) -> Tensor');
pmyops.impl('foo', (x: Tensor, alpha: number, neg: boolean) => (neg ? x.mul(alpha).neg() : x.mul(alpha)), 'CPU');

describe('torch.library.Library', () => {
  it('takes (ns, kind, dispatch_key) and rejects what PyTorch rejects, with its texts', () => {
    expectError('library_aten_def', () => new library.Library('aten', 'DEF'));
    expectError('library_prim_def', () => new library.Library('prim', 'DEF'));
    expectError('library_bad_kind', () => new library.Library('goldlib', 'BOGUS' as 'DEF'));
    expectError('define_bad_alias', () => pmyops.define('bar(Tensor x) -> Tensor', 'PURE_FUNCTION' as 'CONSERVATIVE'));
    expectError('define_twice', () => pmyops.define('foo(Tensor x) -> Tensor'));
    expectError('impl_not_callable', () => pmyops.impl('foo', 3 as unknown as () => void, 'CPU'));
    expectError('fallback_not_global', () => pmyops.fallback(() => null, 'CPU'));
    expect(defineResult).toBe(golden.ops.define_result);
  });

  it('refuses a second kernel for the same op and key when allow_override is false', () => {
    expectError('impl_no_override', () => pmyops.impl('foo', (x: Tensor) => x, 'CPU', { allow_override: false }));
  });

  it('the C++-style Library takes both argument orders; a failed construction registers nothing', () => {
    const d = Dispatcher.withBuiltinFallbacks();
    const a = new CppLibrary('orderlib', 'DEF', undefined, { dispatcher: d });
    expect([a.ns, a.kind]).toEqual(['orderlib', 'DEF']);
    a.remove();
    const b = new CppLibrary('DEF', 'orderlib', undefined, { dispatcher: d });
    expect([b.ns, b.kind]).toEqual(['orderlib', 'DEF']);
    expect(() => new CppLibrary('orderlib', 'DEF', undefined, { dispatcher: d })).toThrow(/Only a single TORCH_LIBRARY/);
    b.remove();
    expect(() => new CppLibrary('IMPL', 'DEF', undefined, { dispatcher: d })).toThrow('Unsupported kind: DEF');
    expect(d.getAllOpNames()).toEqual([]);
  });

  it('kernels receive only the arguments; with_keyset adds the key set first', () => {
    using lib = new library.Library('kslib', 'FRAGMENT');
    lib.define('f(Tensor x) -> Tensor');
    const seen: unknown[][] = [];
    lib.impl(
      'f',
      (ks: unknown, x: Tensor) => {
        seen.push([String(ks), x]);
        return x.clone();
      },
      'CPU',
      { with_keyset: true },
    );
    const x = f32([1]);
    ops.kslib!.f!(x);
    expect(seen).toEqual([['DispatchKeySet(CPU)', x]]);
    lib.impl('f', (...args: unknown[]) => ((args[0] as Tensor).add(1), args.length), 'CompositeExplicitAutograd');
    expect(ops.kslib!.f!(torch.empty(1, { device: 'meta' }))).toBe(1);
  });

  it('fallthrough_kernel registers a fallthrough; _destroy removes every registration', () => {
    const lib = new library.Library('ftlib', 'DEF');
    lib.define('g(Tensor x) -> Tensor');
    lib.impl('g', (x: Tensor) => x.mul(2), 'CompositeExplicitAutograd');
    lib.impl('g', library.fallthrough_kernel, 'CPU');
    expect(values(ops.ftlib!.g!(f32([3])))).toEqual([6]);
    lib._destroy();
    expect(Dispatcher.singleton().findSchema('ftlib::g')).toBeNull();
    expect(() => ops.ftlib!.g).toThrow("'_OpNamespace' 'ftlib' object has no attribute 'g'");
  });
});

describe('torch.ops', () => {
  const op = ops.pmyops!.foo!;
  it('OpOverloadPacket and OpOverload print and report as in PyTorch', () => {
    expect(String(op)).toBe(golden.ops.packet_str);
    expect(String(op.default)).toBe(golden.ops.overload_str);
    expect(op._qualified_op_name).toBe(golden.ops.packet_qualified_name);
    const d = op.default as OpOverload;
    expect(d.name()).toBe(golden.ops.overload_name);
    expect(d.__name__).toBe(golden.ops.overload___name__);
    expect(String(d._schema)).toBe(golden.ops.schema);
    expect(op.overloads()).toEqual(golden.ops.overloads);
    expect(d.overloadpacket).toBe(op);
    expect(d).toBe(ops.pmyops!.foo!.default); // one object per operator (Note [Callable op objects])
    expect(d).toBeInstanceOf(library.OpOverload);
    expect(String(ops.aten!.add!.Tensor!._schema)).toBe(golden.ops.aten_add_schema);
    expect((ops.aten!.add!.Tensor as OpOverload).name()).toBe(golden.ops.aten_add_name);
  });

  it('binds positional arguments, options as keyword arguments and schema defaults', () => {
    const x = f32([1, 2]);
    expect(values(op(x))).toEqual(golden.ops.call_default);
    expect(values(op(x, { neg: true }))).toEqual(golden.ops.call_kw);
    expect(values(op(x, 3))).toEqual(golden.ops.call_positional);
    expect(values(op.default!.call === undefined ? op(x, { alpha: 3 }) : op(x, { alpha: 3 }))).toEqual(golden.ops.call_positional);
    expect(values(ops.aten!.add!(torch.ones(2), 1))).toEqual(golden.ops.aten_add_scalar_other);
    expect(values(ops.aten!.add!.Tensor!(torch.ones(2), torch.ones(2), { alpha: 3 }))).toEqual(golden.ops.aten_add_alpha);
  });

  it("raises PyTorch's argument errors", () => {
    const x = f32([1, 2]);
    expectError('ops_missing', () => op());
    expectError('ops_too_many', () => op(x, 1, 2));
    expectError('ops_unknown_kw', () => op(x, { bogus: 1 }));
    expectError('ops_type', () => op.default!(x, x));
    expectError('ops_no_op', () => ops.pmyops!.nope);
    expectError('ops_no_overload', () => op.nope);
  });

  it('OperatorHandle.call and callBoxed fill schema defaults', () => {
    const h = (op.default as OpOverload).handle;
    const x = f32([1, 2]);
    expect(values(h.call(x))).toEqual(golden.ops.call_default);
    expect(values(h.call(x, undefined, true))).toEqual(golden.ops.call_kw);
    const stack: unknown[] = [x];
    h.callBoxed(stack);
    expect(values(stack[0])).toEqual(golden.ops.call_default);
    expect(() => h.call()).toThrow(golden.errors.ops_missing!.error);
  });
});

describe('custom_op', () => {
  const c = golden.custom_op;
  const scaledSin = library.custom_op('mylib::scaled_sin', (x: Tensor, k: number) => torch.sin(x).mul(k), {
    mutates_args: [],
    schema: '(Tensor x, float k=1.0) -> Tensor',
  });
  scaledSin.register_fake((x: Tensor) => torch.empty_like(x));
  scaledSin.register_autograd<{ k: number }>(
    (ctx, g: Tensor) => {
      const [x] = ctx.saved_tensors;
      return [g.mul(torch.cos(x!)).mul(ctx.k), null];
    },
    {
      setup_context: (ctx, inputs) => {
        ctx.save_for_backward(inputs[0] as Tensor);
        ctx.k = inputs[1] as number;
      },
    },
  );

  it('is an operator with PyTorch’s schema, forward values and gradients', () => {
    expect(String(scaledSin)).toBe(c.repr);
    expect(String(scaledSin._opoverload._schema)).toBe(c.schema);
    const x = f32(c.x, { requires_grad: true });
    const y = scaledSin(x, c.k) as Tensor;
    expect(y.gradFn!.name()).toBe(c.grad_fn);
    values(y).forEach((v, i) => expect(v).toBeCloseTo(c.y[i]!, 6));
    y.sum().backward();
    values(x.grad).forEach((v, i) => expect(v).toBeCloseTo(c.grad_x[i]!, 6));
    // torch.ops reaches it too, and Meta inputs run the fake kernel.
    expect(values(ops.mylib!.scaled_sin!(f32(c.x), { k: c.k }))).toEqual(values(scaledSin(f32(c.x), c.k)));
    expect((scaledSin(torch.empty(5, 2, { device: 'meta' })) as Tensor).size()).toEqual([5, 2]);
  });

  it('passes opcheck with PyTorch’s result keys, then test_gradcheck', () => {
    const r = library.opcheck(scaledSin, [f32([0.5, 1], { requires_grad: true }), 2]);
    expect(Object.keys(r).slice(0, 4)).toEqual(golden.opcheck_keys);
    expect(r).toEqual({
      test_schema: 'SUCCESS',
      test_autograd_registration: 'SUCCESS',
      test_faketensor: 'SUCCESS',
      test_aot_dispatch_dynamic: library.AOT_NOT_APPLICABLE,
      test_gradcheck: 'SUCCESS',
    });
  });

  it('opcheck finds a wrong backward, a wrong fake kernel and an undeclared mutation', () => {
    const wrong = library.custom_op('mylib::wrong_grad', (x: Tensor) => x.mul(x), { mutates_args: [], schema: '(Tensor x) -> Tensor' });
    wrong.register_fake((x: Tensor) => torch.empty_like(x));
    wrong.register_autograd((ctx, g: Tensor) => g.mul(3), {});
    const r = library.opcheck(wrong, [f32([0.5, 2], { requires_grad: true })], null, { raise_exception: false });
    expect(r.test_schema).toBe('SUCCESS');
    expect(r.test_gradcheck).toBeInstanceOf(Error);
    const badfake = library.custom_op('mylib::badfake', (x: Tensor) => x.sum(0, { keepdim: true }), {
      mutates_args: [],
      schema: '(Tensor x) -> Tensor',
    });
    badfake.register_fake((x: Tensor) => torch.empty_like(x));
    expectError('opcheck_fake_shape', () => library.opcheck(badfake, [torch.ones(3, 2)], null, { test_utils: 'test_faketensor' }));
    const liar = library.custom_op(
      'mylib::liar',
      (x: Tensor) => {
        x.add_(1);
        return x.clone();
      },
      { mutates_args: [], schema: '(Tensor x) -> Tensor' },
    );
    liar.register_fake((x: Tensor) => torch.empty_like(x));
    const input = torch.ones(3);
    expectError('opcheck_schema_mutation', () => library.opcheck(liar, [input], null, { test_utils: 'test_schema' }));
    expect(values(input)).toEqual([1, 1, 1]); // opcheck works on copies
  });

  it("raises PyTorch's errors for misuse", () => {
    expectError('custom_op_mutates_mismatch', () =>
      library.custom_op('mylib::m', (x: Tensor) => x, { mutates_args: ['x'], schema: '(Tensor x) -> Tensor' }),
    );
    const nofake = library.custom_op('mylib::nofake', (x: Tensor) => x.mul(2), { mutates_args: [], schema: '(Tensor x) -> Tensor' });
    expectError('custom_op_no_fake', () => nofake(torch.empty(2, { device: 'meta' })));
    const noautograd = library.custom_op('mylib::noautograd', (x: Tensor) => x.mul(2), {
      mutates_args: [],
      schema: '(Tensor x) -> Tensor',
    });
    expectError('custom_op_no_backward', () => (noautograd(torch.ones(2, { requires_grad: true })) as Tensor).sum().backward());
    const addone = library.custom_op(
      'mylib::addone_',
      (x: Tensor) => {
        x.add_(1);
      },
      { mutates_args: ['x'], schema: '(Tensor(a!) x) -> ()' },
    );
    expectError('register_autograd_mutable', () => addone.register_autograd((ctx, g: Tensor) => g));
    const aliasing = library.custom_op('mylib::aliasing', (x: Tensor) => x, { mutates_args: [], schema: '(Tensor x) -> Tensor' });
    expectError('custom_op_returns_input', () => aliasing(torch.ones(2)));
    expect(() => library.custom_op('mylib::noschema', (x: Tensor) => x, { mutates_args: [] })).toThrow(/cannot infer a schema/);
  });

  it('a mutating custom op bumps the version of what it writes and passes opcheck', () => {
    const addone = library.custom_op(
      'mylib::addone2_',
      (x: Tensor) => {
        x.add_(1);
      },
      { mutates_args: ['x'], schema: '(Tensor(a!) x) -> ()' },
    );
    const t = torch.zeros(2);
    const v = t._version;
    addone(t);
    expect(values(t)).toEqual([1, 1]);
    expect(t._version).toBeGreaterThan(v);
    expect(Object.values(library.opcheck(addone, [torch.zeros(2)], null, { test_utils: ['test_schema', 'test_faketensor'] }))).toEqual([
      'SUCCESS',
      'SUCCESS',
    ]);
  });

  it('register_kernel picks the kernel per device; the module-level functions work on any op', () => {
    const both = library.custom_op('mylib::dev', (x: Tensor) => x.add(1), {
      mutates_args: [],
      schema: '(Tensor x) -> Tensor',
      device_types: 'cpu',
    });
    both.register_kernel('meta', (x: Tensor) => torch.empty_like(x).mul(1));
    expect(values(both(f32([1])))).toEqual([2]);
    library.register_kernel(both, 'cpu', (x: Tensor) => x.add(10));
    expect(values(both(f32([1])))).toEqual([11]);
    using lib = new library.Library('modlib', 'FRAGMENT');
    library.define('modlib::twice', '(Tensor x) -> Tensor', { lib });
    library.impl('modlib::twice', 'cpu', (x: Tensor) => x.mul(2), { lib });
    library.register_fake('modlib::twice', (x: Tensor) => torch.empty_like(x), { lib });
    library.register_autograd('modlib::twice', (_ctx, g: Tensor) => g.mul(2), { lib });
    const x = f32([1, 2], { requires_grad: true });
    (ops.modlib!.twice!(x) as Tensor).sum().backward();
    expect(values(x.grad)).toEqual([2, 2]);
    expect(Object.values(library.opcheck(ops.modlib!.twice!, [f32([1, 2], { requires_grad: true })]))).not.toContainEqual(
      expect.any(Error),
    );
  });
});

describe('autograd fallback mode', () => {
  let warnings: string[] = [];
  const previous = setWarningHandler((m) => warnings.push(m));
  afterAll(() => setWarningHandler(previous));
  afterEach(() => {
    warnings = [];
    torch._C._set_autograd_fallback_mode('warn');
  });

  it("warns during backward through a kernel without an Autograd registration (PyTorch's default)", () => {
    expect(torch._C._get_autograd_fallback_mode()).toBe(golden.fallback.default_mode);
    const x = f32([1, 2], { requires_grad: true });
    const y = ops.pmyops!.foo!(x) as Tensor;
    expect(warnings).toEqual([]);
    y.sum().backward();
    expect(warnings).toEqual([golden.fallback.warning]);
    expect(values(x.grad)).toEqual(golden.fallback.grad);
  });

  it('warns through WarnNotImplemented when the kernel cuts the graph itself', () => {
    using lib = new library.Library('fbmode', 'DEF');
    lib.define('detached(Tensor x) -> Tensor');
    lib.impl('detached', (x: Tensor) => x.detach().mul(2), 'CPU');
    const x = f32([1, 2], { requires_grad: true });
    const y = ops.fbmode!.detached!(x) as Tensor;
    expect(y.requiresGrad).toBe(true);
    expect(y.gradFn!.name()).toBe('torch::autograd::WarnNotImplemented');
    y.sum().backward();
    expect(warnings).toHaveLength(1);
    expect(x.grad).toBeNull();
    torch._C._set_autograd_fallback_mode('nothing');
    expect((ops.fbmode!.detached!(x) as Tensor).requiresGrad).toBe(false);
  });

  it("rejects 'error' and unknown modes with PyTorch's texts", () => {
    expectError('fallback_mode_error', () => torch._C._set_autograd_fallback_mode('error'));
    expectError('fallback_mode_bogus', () => torch._C._set_autograd_fallback_mode('bogus'));
    expect(torch._C._get_autograd_fallback_mode()).toBe('warn');
  });
});
