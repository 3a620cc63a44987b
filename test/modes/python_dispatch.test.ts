// TorchDispatchMode on the Python key: what a mode sees (below autograd, PyTorch's args/kwargs split), the
// mode stack (nesting, `using`, helpers), modes that change results, and the Python key's fallback slot.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey } from '../../src/c10/DispatchKey.js';
import { Dispatcher, KernelFunction, tlsIsDispatchKeyIncluded } from '../../src/dispatch/index.js';
import {
  TorchDispatchMode,
  _get_current_dispatch_mode,
  _get_current_dispatch_mode_stack,
  _len_torch_dispatch_stack,
  _pop_mode_temporarily,
  type DispatchKwargs,
} from '../../src/modes/_python_dispatch.js';
import { OpOverload as OpOverloadClass, ops, type OpOverload } from '../../src/library/ops.js';

class Recorder extends TorchDispatchMode {
  readonly seen: string[] = [];
  constructor(readonly tag = '') {
    super();
  }
  override dispatch(func: OpOverload, types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    this.seen.push(`${this.tag}${String(func)}/${args.length}/${Object.keys(kwargs).join(',')}`);
    return func(...args, kwargs);
  }
}

describe('TorchDispatchMode', () => {
  it('sees every call below autograd with the overload object; the graph is recorded once', () => {
    const x = torch.ones([2, 3], { requires_grad: true });
    const m = new Recorder();
    let func: OpOverload | null = null;
    class Grab extends TorchDispatchMode {
      override dispatch(f: OpOverload, _t: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
        func ??= f;
        return f(...args, kwargs);
      }
    }
    {
      using _ = m.enter();
      const y = torch.add(x, x, { alpha: 2 });
      new Grab().run(() => torch.add(x, x));
      y.sum().backward();
    }
    expect(m.seen.slice(0, 2)).toEqual(['aten.add.Tensor/2/alpha', 'aten.add.Tensor/2/']);
    expect(m.seen).toContain('aten.sum.default/1/');
    expect(x.grad?.tolist()).toEqual([
      [3, 3, 3],
      [3, 3, 3],
    ]);
    const f = func as unknown as OpOverload;
    expect(String(f)).toBe('aten.add.Tensor');
    expect(f.name()).toBe('aten::add.Tensor');
    expect(f.__name__).toBe('add.Tensor');
    expect(String(f.overloadpacket)).toBe('aten.add');
    expect(f._schema.toString()).toBe('aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect((f(torch.ones([2]), torch.ones([2]), { alpha: 3 }) as Tensor).tolist()).toEqual([4, 4]);
    // PyTorch's RuntimeError text for `func(x, y, alpah=3)` (createStackForSchema).
    expect(() => f(torch.ones([2]), torch.ones([2]), { alpah: 3 })).toThrow(
      "Unknown keyword argument 'alpah' for operator 'aten::add'. Schema: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    );
  });

  it("func is torch.ops's OpOverload: `func === torch.ops.aten.add.Tensor`, its packet is torch.ops.aten.add", () => {
    const seen: OpOverload[] = [];
    class Grab extends TorchDispatchMode {
      override dispatch(f: OpOverload, _t: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
        seen.push(f);
        // Inside the mode, as Python's `func is torch.ops.aten.add.Tensor`.
        if (f === ops.aten.add!.Tensor) return (f(...args, kwargs) as Tensor).mul(10);
        return f(...args, kwargs);
      }
    }
    const y = new Grab().run(() => torch.add(torch.ones([2]), torch.ones([2]), { alpha: 2 }));
    expect(y.tolist()).toEqual([30, 30]);
    expect(seen[seen.length - 1]).toBe(ops.aten.add!.Tensor);
    expect(seen.find((f) => String(f) === 'aten.ones.default')).toBe(ops.aten.ones!.default);
    const add = seen[seen.length - 1]!;
    expect(add).toBeInstanceOf(OpOverloadClass);
    expect(add.overloadpacket).toBe(ops.aten.add);
    expect(add._overloadname).toBe('Tensor');
    expect(add.handle).toBe(Dispatcher.singleton().findSchema('aten::add', 'Tensor'));
    // Its argument checks are torch.ops's (PyTorch's type error), not a second binder's.
    expect(() => add(torch.ones([2]), 'x')).toThrow(
      "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'str'.",
    );
  });

  it('nests: the inner mode sees the call first, calls through to the outer one; the stack helpers', () => {
    const outer = new Recorder('outer:');
    const inner = new Recorder('inner:');
    expect(tlsIsDispatchKeyIncluded(DispatchKey.Python)).toBe(false);
    outer.enter();
    inner.enter();
    expect(tlsIsDispatchKeyIncluded(DispatchKey.Python)).toBe(true);
    expect(tlsIsDispatchKeyIncluded(DispatchKey.PythonTLSSnapshot)).toBe(true);
    expect(_get_current_dispatch_mode()).toBe(inner);
    expect(_get_current_dispatch_mode_stack()).toEqual([outer, inner]);
    torch.ones([2]).neg();
    {
      using s = _pop_mode_temporarily();
      expect(s.mode).toBe(inner);
      expect(_len_torch_dispatch_stack()).toBe(1);
      torch.ones([1]).exp();
    }
    expect(_len_torch_dispatch_stack()).toBe(2);
    expect(() => outer.exit()).toThrow('this mode is not the innermost active dispatch mode');
    inner.exit();
    outer.exit();
    expect(tlsIsDispatchKeyIncluded(DispatchKey.Python)).toBe(false);
    expect(inner.seen).toEqual(['inner:aten.ones.default/1/', 'inner:aten.neg.default/1/']);
    expect(outer.seen).toEqual([
      'outer:aten.ones.default/1/',
      'outer:aten.neg.default/1/',
      'outer:aten.ones.default/1/',
      'outer:aten.exp.default/1/',
    ]);
  });

  it('changes calls: a mode that turns add into sub, also under autograd', () => {
    class AddIsSub extends TorchDispatchMode {
      override dispatch(func: OpOverload, _t: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
        if (String(func) === 'aten.add.Tensor') return (args[0] as Tensor).sub(args[1] as Tensor);
        return func(...args, kwargs);
      }
    }
    const a = torch.tensor([5, 7], { dtype: torch.float32, requires_grad: true });
    const b = torch.tensor([1, 2]);
    const y = new AddIsSub().run(() => torch.add(a, b));
    expect(y.tolist()).toEqual([4, 5]);
    expect(torch.add(a, b).tolist()).toEqual([6, 9]);
    y.sum().backward();
    expect(a.grad?.tolist()).toEqual([1, 1]);
  });

  it('a throwing dispatch leaves the stack and TLS as they were', () => {
    class Boom extends TorchDispatchMode {
      override dispatch(): unknown {
        throw new Error('boom');
      }
    }
    const m = new Boom();
    expect(() => m.run(() => torch.ones([1]))).toThrow('boom');
    expect(_len_torch_dispatch_stack()).toBe(0);
    expect(tlsIsDispatchKeyIncluded(DispatchKey.Python)).toBe(false);
  });

  it("the Python key's fallback is the mode dispatcher; a second fallback there is PyTorch's error", () => {
    const d = Dispatcher.singleton();
    expect(d.backendFallback(DispatchKey.Python)?.debug).toContain('Python: dispatch modes');
    expect(() =>
      d.registerFallback(
        DispatchKey.Python,
        KernelFunction.fromBoxed(() => undefined),
        'mine',
      ),
    ).toThrow('Tried to register multiple backend fallbacks for the same dispatch key Python; previous registration');
    // Reaching the key with no mode and no subclass tensor: PyTorch's internal assert text.
    const handle = d.findSchemaOrThrow('aten::neg', '');
    expect(() => handle.callBoxedForDispatchKey(DispatchKey.Python, [torch.ones([1])])).toThrow(
      'Hit Python dispatch key but no arguments had PyInterpreter (no tensor subclasses?)',
    );
  });
});
