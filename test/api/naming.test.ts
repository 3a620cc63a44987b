// One naming rule (Note [One naming rule], README "Naming"): PyTorch's spelling is canonical on every public
// class, and a camelCase member is the very same function (or getter/setter) as its snake_case twin,
// installed by aliasCamelCase. The walk below visits every class the package exports (the entry, the torch
// namespace with nn, optim, utils.data, profiler, library, modes, autograd...) and checks every camelCase
// member of its prototypes against that rule or the short allow-list, each entry with its reason.
import { describe, expect, it } from 'vitest';
import * as pkg from '../../src/index.js';
import { Tensor, nn, optim, torch, utils } from '../../src/index.js';
import type { FunctionCtx } from '../../src/autograd/customFunction.js';
import { snakeCase } from '../../src/c10/Kwargs.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { loadGolden } from '../golden.js';

type Ctor = abstract new (...args: never[]) => unknown;

/** Every class reachable from the package's exports, by the path it was first found at. */
function exportedClasses(): Map<Ctor, string> {
  const seen = new Set<unknown>();
  const out = new Map<Ctor, string>();
  const walk = (v: unknown, path: string, depth: number): void => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 6) return;
    seen.add(v);
    if (typeof v === 'function' && typeof (v as { prototype?: unknown }).prototype === 'object') {
      const proto = (v as { prototype: object }).prototype;
      if (Object.getOwnPropertyNames(proto).length > 1) out.set(v as Ctor, path);
    }
    if (typeof v === 'object' || path.split('.').length < 3) {
      for (const k of Object.keys(v as object)) {
        let child: unknown;
        try {
          child = (v as Record<string, unknown>)[k];
        } catch {
          continue;
        }
        walk(child, `${path}.${k}`, depth + 1);
      }
    }
  };
  walk(pkg, 'aten-ts', 0);
  return out;
}

/** JavaScript's protocol names: what the language calls, not a PyTorch member. */
const PROTOCOL = new Set(['toString', 'toJSON', 'toLocaleString', 'valueOf']);
/** Python's dunder protocol methods, which have no JavaScript spelling: their aten-ts names. */
const DUNDER: Record<string, string> = {
  getItem: "Python's __getitem__: the map-style Dataset protocol (with len() for __len__)",
};
const BUILTIN_PROTOS = new Set<object>(
  [Object, Function, Array, Map, Set, Error, TypeError, RangeError, Promise].map((c) => c.prototype as object),
);

/**
 * The allow-list: classes that mirror a C++ API, whose PyTorch spelling is C++'s camelCase, and single members
 * with no snake_case twin, each with its reason.
 */
const CPP_CLASSES: Record<string, string> = {
  Argument: 'c10::Argument (FunctionSchema.h): isWrite, defaultValue... are C++ names',
  Device: 'c10::Device: hasIndex, isCpu are C++ names',
  DispatchKeySet: 'c10::DispatchKeySet: C++ API (highestPriorityTypeId, has_all is hasAll in C++)',
  Dispatcher: 'c10::Dispatcher: findSchema, registerImpl... are C++ names',
  FunctionSchema: 'c10::FunctionSchema: C++ API',
  KernelFunction: 'c10::KernelFunction: C++ API',
  ListType: 'c10::ListType (jit_type.h): C++ API',
  OptionalType: 'c10::OptionalType: C++ API',
  TupleType: 'c10::TupleType: C++ API',
  SchemaType: 'c10::Type: C++ API',
  OperatorHandle: 'c10::OperatorHandle: callBoxed, redispatchBoxed... are C++ names',
  OperatorName: 'c10::OperatorName: C++ API',
  RegistrationHandle: 'c10::RegistrationHandleRAII: C++ API',
  Storage: 'c10::StorageImpl: C++ API (setDataPtr, dataPtr)',
  Node: 'torch::autograd::Node: the C++ graph node (numInputs, setNextEdges...); what Python reaches as grad_fn is snake_case (next_functions, register_hook, register_prehook)',
  SavedVariable: 'torch::autograd::SavedVariable: C++ API (unpackOpt)',
  CustomFunctionBackward: 'torch::autograd::Node subclass: C++ API',
};

const ALLOWED: Record<string, Record<string, string>> = {
  TensorImpl: {
    isMeta: "TensorImpl::is_meta(), what the kernels call (PyTorch's x.is_meta is a property)",
    isContiguous: 'TensorImpl::is_contiguous() without the parser; x.is_contiguous({ memory_format }) is the generated method',
    isInference: 'TensorImpl::is_inference(), the C++ check the dispatcher makes',
    bumpVersion: "TensorImpl::bump_version(), C++'s internal API",
    dataView: 'internal: the typed array under the tensor, for kernels',
    setSizesAndStrides: "TensorImpl::set_sizes_and_strides, C++'s internal API",
  },
  Tensor: {
    mT: "PyTorch's own spelling (x.mT)",
    mH: "PyTorch's own spelling (x.mH)",
    isView: "PyTorch's spelling is the private _is_view()",
    typeString: "internal: the legacy type string of error texts (x.type() is PyTorch's)",
    sharesStorageWith: 'internal: storage identity for the kernels (no PyTorch counterpart)',
    adjointOfReal: 'internal: the mH of a real tensor',
  },
  FakeTensorMode: {
    allocatorFor: 'internal: the fake allocator of a device',
    wrapMeta: 'internal: a meta tensor as a FakeTensor',
  },
  LoggingTensorMode: { shortId: 'internal: short tensor ids of the log', fmtTop: 'internal: log formatting' },
  ModuleTracker: { modName: 'internal: the module name of a tracker frame' },
  CustomOpDef: {
    registerToDispatcher: "PyTorch's private _register_to_dispatcher",
    registerFakeImpl: 'internal: the Meta kernel',
    registerVersionBump: 'internal: the ADInplaceOrView kernel',
  },
  DataLoader: { indexSampler: "PyTorch's private _index_sampler" },
};

describe('one naming rule', () => {
  const classes = exportedClasses();

  it('finds the public classes', () => {
    const names = new Set([...classes.keys()].map((c) => c.name));
    for (const n of ['Tensor', 'Module', 'Linear', 'Optimizer', 'SGD', 'LRScheduler', 'StepLR', 'Generator', 'FunctionCtx']) {
      expect(names, n).toContain(n);
    }
    for (const n of ['DataLoader', 'TensorDataset', 'RandomSampler', 'profile', 'FlopCounterMode', 'CustomOpDef']) {
      expect(names, n).toContain(n);
    }
  });

  it('every camelCase member is its snake_case twin (the same function), or allow-listed with a reason', () => {
    const bad: string[] = [];
    for (const [cls, path] of classes) {
      if (cls.name in CPP_CLASSES) continue;
      const allowed = ALLOWED[cls.name] ?? {};
      // a member shadowed by a nearer prototype's own one is not what the class's instances see: skip it
      const seen = new Set<string>();
      for (let proto = cls.prototype as object | null; proto !== null && !BUILTIN_PROTOS.has(proto); proto = Object.getPrototypeOf(proto)) {
        const owner = (proto as { constructor?: { name?: string } }).constructor?.name ?? '';
        if (owner !== cls.name && owner in CPP_CLASSES) break;
        for (const key of Object.getOwnPropertyNames(proto)) {
          if (seen.has(key)) continue;
          seen.add(key);
          if (!/^[a-z][a-z0-9]*[A-Z]/.test(key) || PROTOCOL.has(key) || key in DUNDER || key in allowed || key in (ALLOWED[owner] ?? {}))
            continue;
          const d = Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor;
          let twin: PropertyDescriptor | undefined;
          for (let p: object | null = cls.prototype as object; p !== null && twin === undefined; p = Object.getPrototypeOf(p)) {
            twin = Object.getOwnPropertyDescriptor(p, snakeCase(key));
          }
          const same = twin !== undefined && twin.value === d.value && twin.get === d.get && twin.set === d.set;
          if (!same)
            bad.push(`${path} (${owner}).${key}: ${twin === undefined ? `no ${snakeCase(key)}` : `${snakeCase(key)} is another function`}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('the allow-list names members that exist', () => {
    const byName = new Map<string, Ctor>([...classes.keys()].map((c) => [c.name, c]));
    byName.set('TensorImpl', Object.getPrototypeOf(pkg.Tensor) as Ctor);
    for (const [name, members] of Object.entries(ALLOWED)) {
      const cls = byName.get(name);
      expect(cls, name).toBeDefined();
      for (const m of Object.keys(members)) expect(m in (cls as Ctor).prototype, `${name}.${m}`).toBe(true);
    }
  });
});

// ---- every item of the rule in PyTorch's spelling ----------------------------------------------------------

interface Outcome {
  error: string;
  type: string;
}
const G = loadGolden<{
  dtypes: Record<
    string,
    {
      is_floating_point: boolean;
      is_complex: boolean;
      torch_is_floating_point: boolean;
      torch_is_complex: boolean;
      element_size: number;
      type: string;
      meta_type: string;
    }
  >;
  storage_offsets: Record<string, number>;
  expand_as: { sizes: number[]; strides: number[]; values: number[][]; error: Outcome };
  conversions: Record<string, { dtype: string; same: boolean }>;
  errors: Record<string, Outcome>;
}>('tensor_names.json');

describe('Tensor members in PyTorch’s spelling (tools/golden/gen_tensor_names.py)', () => {
  it('is_floating_point, is_complex, element_size, type() per dtype; torch.is_floating_point / is_complex', () => {
    for (const [name, want] of Object.entries(G.dtypes)) {
      const t = torch.zeros([2, 3], { dtype: name });
      expect(t.is_floating_point(), name).toBe(want.is_floating_point);
      expect(t.is_complex(), name).toBe(want.is_complex);
      expect(torch.is_floating_point(t), name).toBe(want.torch_is_floating_point);
      expect(torch.is_complex(t), name).toBe(want.torch_is_complex);
      expect(t.element_size(), name).toBe(want.element_size);
      expect(t.type(), name).toBe(want.type);
      expect(torch.empty([2], { dtype: name, device: 'meta' }).type(), name).toBe(want.meta_type);
      expect(t.isFloatingPoint).toBe(t.is_floating_point);
    }
    expect(() => torch.is_floating_point(3 as never)).toThrow(G.errors['torch.is_floating_point(3)']!.error);
    expect(() => torch.is_complex(3 as never)).toThrow(G.errors['torch.is_complex(3)']!.error);
  });

  it('storage_offset() of views', () => {
    const x = torch.arange(12, { dtype: 'float32' }).reshape(3, 4);
    const views: Record<string, Tensor> = {
      x,
      'x[1:]': x.slice(0, 1),
      'x.t()[2]': x.t().select(0, 2),
      'x[2, 1:]': x.select(0, 2).slice(0, 1),
      'x.flatten()[5:]': x.flatten().slice(0, 5),
    };
    for (const [k, want] of Object.entries(G.storage_offsets)) expect(views[k]!.storage_offset(), k).toBe(want);
  });

  it('expand_as(other)', () => {
    const x = torch.arange(12, { dtype: 'float32' }).reshape(3, 4);
    const e = torch.tensor([[1.0], [2.0], [3.0]]).expand_as(x);
    expect(e.size()).toEqual(G.expand_as.sizes);
    expect(e.stride()).toEqual(G.expand_as.strides);
    expect(e.tolist()).toEqual(G.expand_as.values);
    expect(() => x.expand_as(torch.zeros(3))).toThrow(G.expand_as.error.error);
    expect(Tensor.prototype.expandAs).toBe(Tensor.prototype.expand_as);
  });

  it('type(dtype) and type(type string) convert; a bare dtype name or a number is an error', () => {
    const x = torch.arange(12, { dtype: 'float32' }).reshape(3, 4);
    for (const [k, want] of Object.entries(G.conversions)) {
      const [kind, arg] = k.split(' ') as [string, string];
      const r = (kind === 'dtype' ? x.type((torch as unknown as Record<string, torch.dtype>)[arg]!) : x.type(arg)) as Tensor;
      expect(String(r.dtype), k).toBe(want.dtype);
      expect(r === x, k).toBe(want.same);
    }
    expect(x.type({ dtype: torch.float64 }).dtype).toBe(torch.float64);
    expect(() => x.type('float64')).toThrow(G.errors["type('float64')"]!.error);
    expect(() => x.type('torch.FooTensor')).toThrow(G.errors["type('torch.FooTensor')"]!.error);
    expect(() => x.type(5 as never)).toThrow(G.errors['type(5)']!.error);
    // the tutorial's accuracy line: pred.argmax(1).eq(y).type(torch.float)
    expect(
      torch
        .tensor([1, 0, 1])
        .eq(torch.tensor([1, 1, 1]))
        .type(torch.float)
        .sum()
        .item(),
    ).toBe(2);
  });
});

describe('Generator in PyTorch’s spelling', () => {
  it('manual_seed, initial_seed, seed, get_state / set_state; the camelCase names are the same functions', () => {
    const g = new torch.Generator();
    expect(g.manual_seed(7)).toBe(g);
    expect(g.initial_seed()).toBe(7n);
    const a = torch.randn([4], { generator: g }).tolist();
    torch.manual_seed(7);
    expect(torch.randn(4).tolist()).toEqual(a); // the same stream as the default generator's for that seed
    const state = g.get_state();
    const b = torch.rand([3], { generator: g }).tolist();
    g.set_state(state);
    expect(torch.rand([3], { generator: g }).tolist()).toEqual(b);
    // a uint8 tensor state (torch.get_rng_state()) is taken too
    torch.manual_seed(3);
    g.set_state(torch.get_rng_state());
    expect(g.initial_seed()).toBe(3n);
    expect(typeof g.seed()).toBe('bigint');
    const P = torch.Generator.prototype;
    expect([P.manualSeed, P.initialSeed, P.getState, P.setState]).toEqual([P.manual_seed, P.initial_seed, P.get_state, P.set_state]);
  });
});

describe('autograd FunctionCtx in PyTorch’s spelling', () => {
  // "Learning PyTorch with Examples": LegendrePolynomial3, P3(x) = (5x^3 - 3x) / 2.
  class LegendrePolynomial3 extends torch.autograd.Function {
    static override forward(ctx: FunctionCtx, input: Tensor): Tensor {
      ctx.save_for_backward(input);
      return input.pow(3).mul(5).sub(input.mul(3)).mul(0.5);
    }
    static override backward(ctx: FunctionCtx, grad_output: Tensor | null): Tensor {
      const [input] = ctx.saved_tensors;
      return grad_output!.mul(input!.pow(2).mul(5).sub(1).mul(1.5));
    }
  }

  it('save_for_backward / saved_tensors / needs_input_grad (the tutorial’s custom Function)', () => {
    const x = torch.tensor([0.5, -1, 2], { dtype: 'float64', requires_grad: true });
    const y = LegendrePolynomial3.apply(x) as Tensor;
    expect(y.tolist()).toEqual([0.5 * (5 * 0.125 - 1.5), 0.5 * (-5 + 3), 0.5 * (40 - 6)]);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([1.5 * (5 * 0.25 - 1), 1.5 * (5 - 1), 1.5 * (20 - 1)]);
    let seen: readonly boolean[] = [];
    class Probe extends torch.autograd.Function {
      static override forward(ctx: FunctionCtx, a: Tensor, b: Tensor, k: number): Tensor {
        seen = ctx.needs_input_grad;
        expect(ctx.needsInputGrad).toBe(ctx.needs_input_grad);
        return a.mul(b).mul(k);
      }
      static override backward(_ctx: FunctionCtx, g: Tensor | null): (Tensor | null)[] {
        return [g, null, null];
      }
    }
    Probe.apply(x, torch.ones(3, { dtype: 'float64' }), 2);
    expect(seen).toEqual([true, false, false]);
  });

  it('mark_dirty, mark_non_differentiable, set_materialize_grads', () => {
    class AddOneInPlace extends torch.autograd.Function {
      static override forward(ctx: FunctionCtx, a: Tensor): Tensor[] {
        a.add_(1);
        ctx.mark_dirty(a);
        const idx = a.argmax();
        ctx.mark_non_differentiable(idx);
        ctx.set_materialize_grads(false);
        return [a, idx];
      }
      static override backward(ctx: FunctionCtx, g: Tensor | null): Tensor | null {
        expect(ctx.materialize_grads).toBe(false);
        return g;
      }
    }
    const leaf = torch.tensor([1, 5, 2], { dtype: 'float32', requires_grad: true });
    const a = leaf.clone();
    const [out, idx] = AddOneInPlace.apply(a) as [Tensor, Tensor];
    expect(out).toBe(a); // a dirty input is returned as itself, rebased
    expect(out.grad_fn!.name()).toBe('AddOneInPlaceBackward');
    expect(idx.requires_grad).toBe(false);
    out.sum().backward();
    expect(leaf.grad!.tolist()).toEqual([1, 1, 1]);
  });

  it('the camelCase names are the same members', () => {
    const P = torch.autograd.FunctionCtx.prototype;
    expect(P.saveForBackward).toBe(P.save_for_backward);
    expect(P.markDirty).toBe(P.mark_dirty);
    expect(P.markNonDifferentiable).toBe(P.mark_non_differentiable);
    expect(P.setMaterializeGrads).toBe(P.set_materialize_grads);
    const d = (k: string) => Object.getOwnPropertyDescriptor(P, k)!.get;
    expect(d('savedTensors')).toBe(d('saved_tensors'));
  });
});

describe('options through the one keyword parser', () => {
  it("state_dict({ keep_vars }) and { keepVars } keep the parameters; unknown keys are PyTorch's error", () => {
    const m = new nn.Linear(2, 3);
    for (const o of [{ keep_vars: true }, { keepVars: true }]) {
      const sd = m.state_dict(o);
      expect(sd['weight']).toBe(m.weight);
      expect(sd['bias']).toBe(m.bias);
    }
    expect(m.state_dict()['weight']).not.toBe(m.weight);
    expect(() => m.state_dict({ keep_vars: true, keepVars: true })).toThrow("state_dict() got multiple values for argument 'keep_vars'");
    expect(() => m.state_dict({ keepvars: true } as never)).toThrow("state_dict() got an unexpected keyword argument 'keepvars'");
    expect(m.stateDict).toBe(m.state_dict);
  });

  it('optimizers and schedulers: snake_case canonical, camelCase the same function, camelCase keys', () => {
    const p = new nn.Parameter(torch.ones(2));
    const opt = new optim.SGD([p], { lr: 0.1 });
    expect(opt.zeroGrad).toBe(opt.zero_grad);
    expect(opt.paramGroups).toBe(opt.param_groups);
    p.grad = torch.ones(2);
    opt.zero_grad({ setToNone: false });
    expect(p.grad.tolist()).toEqual([0, 0]);
    expect(() => opt.zero_grad({ set_to_nonee: false } as never)).toThrow("zero_grad() got an unexpected keyword argument 'set_to_nonee'");
    const sched = new optim.lr_scheduler.CosineAnnealingLR(opt, { T_max: 10, etaMin: 0.01 });
    expect(sched.getLastLr).toBe(sched.get_last_lr);
    expect(sched.get_last_lr()).toEqual([0.1]);
  });

  it('samplers and the modes take camelCase keys too', () => {
    const g = new torch.Generator().manual_seed(0);
    const a = [...new utils.data.RandomSampler(new utils.data.TensorDataset(torch.arange(5)), { numSamples: 3, generator: g })];
    expect(a).toHaveLength(3);
    expect(new torch._subclasses.FakeTensorMode({ allowNonFakeInputs: true }).allow_non_fake_inputs).toBe(true);
    const d = new utils.data.TensorDataset(torch.arange(6));
    const byKey = new utils.data.BatchSampler(new utils.data.SequentialSampler(d), { batch_size: 4, dropLast: true });
    expect([...byKey]).toEqual([[0, 1, 2, 3]]);
    expect([...new utils.data.BatchSampler(new utils.data.SequentialSampler(d), 4, false)]).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
    const perm = (o: unknown) => [...new utils.data.SubsetRandomSampler([10, 11, 12], o as never)];
    expect(perm({ generator: new torch.Generator().manual_seed(1) })).toEqual(perm(new torch.Generator().manual_seed(1)));
    const split = (o: unknown) => utils.data.random_split(d, [4, 2], o as never).map((s) => s.indices);
    expect(split({ generator: new torch.Generator().manual_seed(2) })).toEqual(split(new torch.Generator().manual_seed(2)));
    expect(() => new utils.data.BatchSampler(new utils.data.SequentialSampler(d), 2, { batch_size: 3, drop_last: false })).toThrow(
      "BatchSampler.__init__() got multiple values for argument 'batch_size'",
    );
    expect(() => new torch.modes.FlopCounterMode({ dispaly: false } as never)).toThrow(
      "FlopCounterMode() got an unexpected keyword argument 'dispaly'",
    );
  });
});

describe('nn.init and custom_op keyword spellings', () => {
  it('nn.init takes its arguments positionally or as one options object, PyTorch’s names', () => {
    const draw = (args: unknown[]): number[] => {
      const w = torch.empty(4, 3);
      (nn.init.kaiming_uniform_ as (t: Tensor, ...a: unknown[]) => Tensor)(w, ...args);
      return w.reshape(-1).tolist() as number[];
    };
    const byPosition = draw([0.1, 'fan_out', 'leaky_relu', new torch.Generator().manual_seed(5)]);
    expect(draw([{ a: 0.1, mode: 'fan_out', nonlinearity: 'leaky_relu', generator: new torch.Generator().manual_seed(5) }])).toEqual(
      byPosition,
    );
    expect(draw([0.1, { mode: 'fan_out', nonlinearity: 'leaky_relu', generator: new torch.Generator().manual_seed(5) }])).toEqual(
      byPosition,
    );
    expect(draw([{ mode: 'fan_in', generator: new torch.Generator().manual_seed(5) }])).not.toEqual(byPosition);
  });

  it('custom_op takes mutates_args / device_types and their camelCase spellings', () => {
    const a = torch.library.custom_op('naming::twice_snake', (x: Tensor) => x.mul(2), {
      mutates_args: [],
      device_types: 'cpu',
      schema: '(Tensor x) -> Tensor',
    });
    const b = torch.library.custom_op('naming::twice_camel', (x: Tensor) => x.mul(2), {
      mutatesArgs: [],
      deviceTypes: 'cpu',
      schema: '(Tensor x) -> Tensor',
    } as never);
    const x = torch.tensor([1, 2]);
    expect((a(x) as Tensor).tolist()).toEqual([2, 4]);
    expect((b(x) as Tensor).tolist()).toEqual([2, 4]);
    expect(() =>
      torch.library.custom_op('naming::twice_bad', (x: Tensor) => x, { mutates_args: [], schemas: '(Tensor x) -> Tensor' } as never),
    ).toThrow("custom_op() got an unexpected keyword argument 'schemas'");
    expect(() => torch.library.custom_op('naming::twice_both', (x: Tensor) => x, { mutates_args: [], mutatesArgs: [] } as never)).toThrow(
      "custom_op() got multiple values for argument 'mutates_args'",
    );
  });
});

describe('torch.library.register_autograd', () => {
  it("takes PyTorch's setup_context(ctx, inputs, output); on a custom_op by name it warns nothing", () => {
    const warnings: string[] = [];
    const previous = setWarningHandler((m) => warnings.push(m));
    try {
      const op = torch.library.custom_op('naming::scaled', (x: Tensor, k: number) => x.mul(k), {
        mutates_args: [],
        schema: '(Tensor x, float k) -> Tensor',
      });
      let outputSeen: unknown = null;
      torch.library.register_autograd<{ k: number }>('naming::scaled', (ctx, g: Tensor) => [g.mul(ctx.k), null], {
        setup_context: (ctx, inputs, output) => {
          ctx.k = inputs[1] as number;
          outputSeen = output;
        },
      });
      const x = torch.tensor([1, 2], { dtype: 'float32', requires_grad: true });
      const y = op(x, 3) as Tensor;
      expect(outputSeen).toBeInstanceOf(Tensor);
      y.sum().backward();
      expect(x.grad!.tolist()).toEqual([3, 3]);
    } finally {
      setWarningHandler(previous);
    }
    expect(warnings.filter((w) => w.includes('Overriding a previously registered kernel'))).toEqual([]);
  });
});

describe('torch.profiler.profile', () => {
  it('works without new (the doc example) and has no public enter hook', () => {
    const prof = torch.profiler.profile({ record_shapes: true });
    expect(prof).toBeInstanceOf(torch.profiler.profile);
    expect(torch.profiler.profile.name).toBe('profile');
    expect('enter' in prof).toBe(false);
    {
      using _p = prof.start();
      torch.ones(2).add(1);
    }
    expect(prof.events().some((e) => e.name === 'aten::add')).toBe(true);
    expect(new torch.profiler.profile()).toBeInstanceOf(torch.profiler.profile);
  });
});
