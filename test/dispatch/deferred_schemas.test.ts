// Note [Deferred schemas] (src/dispatch/Dispatcher.ts): the generated aten schemas are parsed on first use. An
// operator not yet used has a schema for lookups without a parse; its first call, boxed call, schema read or
// table read parses it and builds its table; registrations made before that are all honoured. Note [Registration
// on first touch]: the operator's built-in kernels (aten's and autograd's) are registered at that first touch too,
// before whatever touched it, and only for that operator.
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { Library } from '../../src/dispatch/Library.js';
import { DispatchKey } from '../../src/c10/DispatchKey.js';
import { registerAten } from '../../src/aten/register.js';
import { registerAutograd } from '../../src/autograd/register.js';
import { torch } from '../../src/index.js';

const warnings: string[] = [];
const fresh = (): Dispatcher => {
  const d = Dispatcher.withBuiltinFallbacks({ warn: (m) => warnings.push(m) });
  registerAten(d);
  return d;
};

describe('deferred aten schemas', () => {
  it('findSchema does not parse; the first call does, and gives the parsed schema and table', () => {
    const d = fresh();
    const h = d.findSchemaOrThrow('aten::add', 'Tensor');
    expect(h.entry.deferred).not.toBeNull();
    expect(h.hasSchema()).toBe(true);
    const r = h.call(torch.tensor([1, 2]), torch.tensor([10, 20]), 1) as ReturnType<typeof torch.tensor>;
    expect(r.tolist()).toEqual([11, 22]);
    expect(h.entry.deferred).toBeNull();
    expect(h.schema?.toString()).toBe('aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    d.checkInvariants(h);
  });

  it('reading the schema or the table resolves it, with the same table as an eager def', () => {
    const d = fresh();
    const h = d.findSchemaOrThrow('aten::mul', 'Tensor');
    expect(h.hasComputedKernelForDispatchKey(DispatchKey.CPU)).toBe(true);
    expect(h.entry.deferred).toBeNull();
    d.checkInvariants(h);
    const s = d.findSchemaOrThrow('aten::sub', 'Tensor');
    expect(s.schema?.arguments.map((a) => a.name)).toEqual(['self', 'other', 'alpha']);
    expect(s.computedKernelForDispatchKey(DispatchKey.CPU)?.debug).toBe('registered at aten-ts kernel sub_Tensor (CPU)');
  });

  it('a kernel registered while deferred wins at the first call, and a second def is the duplicate error', () => {
    const d = fresh();
    const lib = new Library('aten', 'IMPL', 'CPU', { dispatcher: d });
    lib.impl('neg', (_ks: unknown, x: unknown) => x);
    // (the override warning prints the schema, so this registration itself parsed it)
    const h = d.findSchemaOrThrow('aten::neg', '');
    const x = torch.tensor([3]);
    expect(h.call(x)).toBe(x);
    expect(warnings.at(-1)).toContain('previous kernel: registered at aten-ts kernel neg (CPU)');
    const frag = new Library('aten', 'FRAGMENT', undefined, { dispatcher: d });
    expect(d.findSchemaOrThrow('aten::abs', '').entry.deferred).not.toBeNull();
    expect(() => frag.def('abs(Tensor self) -> Tensor')).toThrow(
      /^Tried to register an operator \(aten::abs\(Tensor self\) -> Tensor\) with the same name and overload name multiple times\./,
    );
    lib.remove();
    frag.remove();
  });
});

describe('registration on first touch', () => {
  const withAutograd = (): { d: Dispatcher; warned: string[] } => {
    const warned: string[] = [];
    const d = Dispatcher.withBuiltinFallbacks({ warn: (m) => warned.push(m) });
    registerAten(d);
    registerAutograd(d);
    return { d, warned };
  };

  it('a call registers the kernels of its operator only; whole-registry queries see every operator', () => {
    const { d } = withAutograd();
    const names = d.getAllOpNames();
    expect(names.length).toBeGreaterThan(1000);
    expect(names).toContain('aten::sub.Tensor');
    expect(d.overloadNamesOf('aten::sub')).toContain('Tensor');
    const add = d.findSchemaOrThrow('aten::add', 'Tensor');
    const sub = d.findSchemaOrThrow('aten::sub', 'Tensor');
    expect(add.entry.deferred).not.toBeNull();
    const r = add.call(torch.tensor([1, 2]), torch.tensor([10, 20]), 1) as ReturnType<typeof torch.tensor>;
    expect(r.tolist()).toEqual([11, 22]);
    expect(add.entry.deferred).toBeNull();
    expect(sub.entry.deferred).not.toBeNull();
    // the same registrations as the eager ones, in the same order
    expect(add.dumpState()).toContain('CPU: registered at aten-ts kernel add_Tensor (CPU)');
    expect(add.dumpState()).toContain('Autograd[alias]: registered at aten-ts autograd add_Tensor (Autograd)');
    d.checkInvariants(add);
    // reading an untouched operator's registrations registers them first
    expect(sub.hasKernelForDispatchKey(DispatchKey.CPU)).toBe(true);
    expect(sub.entry.deferred).toBeNull();
    const neg = d.findSchemaOrThrow('aten::neg', '');
    expect(neg.entry.deferred).not.toBeNull();
    expect(d.dumpComputedTable(neg)).toContain('CPU: registered at aten-ts kernel neg (CPU) [kernel]');
    expect(d.dumpState('aten::mul', 'Tensor')).toContain('Meta: registered at aten-ts kernel mul_Tensor (Meta)');
  });

  it('a user kernel that is the first touch of its operator comes after the built-ins: it wins, then gives way', () => {
    const { d, warned } = withAutograd();
    const mul = d.findSchemaOrThrow('aten::mul', 'Tensor');
    expect(mul.entry.deferred).not.toBeNull();
    const lib = new Library('aten', 'IMPL', 'CPU', { dispatcher: d });
    let calls = 0;
    lib.impl('mul.Tensor', (_ks: unknown, a: unknown) => {
      calls++;
      return a;
    });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('operator: aten::mul.Tensor(Tensor self, Tensor other) -> Tensor');
    expect(warned[0]).toContain('previous kernel: registered at aten-ts kernel mul_Tensor (CPU)');
    const x = torch.tensor([3]);
    expect(mul.call(x, torch.tensor([5]))).toBe(x);
    expect(calls).toBe(1);
    expect(mul.dumpState()).toMatch(/CPU \(inactive\): registered at aten-ts kernel mul_Tensor \(CPU\)/);
    lib.remove();
    expect((mul.call(x, torch.tensor([5])) as typeof x).tolist()).toEqual([15]);
    expect(calls).toBe(1);
    d.checkInvariants(mul);
  });

  it("an Autograd override of an untouched operator replaces autograd's built-in kernel", () => {
    const { d, warned } = withAutograd();
    const lib = new Library('aten', 'IMPL', 'Autograd', { dispatcher: d });
    lib.impl('sin', (_ks: unknown, x: unknown) => x);
    expect(warned[0]).toContain('previous kernel: registered at aten-ts autograd sin (Autograd)');
    const sin = d.findSchemaOrThrow('aten::sin', '');
    expect(sin.computedKernelForDispatchKey(DispatchKey.AutogradCPU)?.debug).not.toContain('aten-ts autograd');
    lib.remove();
    expect(sin.computedKernelForDispatchKey(DispatchKey.AutogradCPU)?.debug).toBe('registered at aten-ts autograd sin (Autograd)');
  });

  it('a kernel provider added after operators were touched registers for those at once', () => {
    const d = fresh();
    const abs = d.findSchemaOrThrow('aten::abs', '');
    expect(abs.hasKernelForDispatchKey(DispatchKey.CPU)).toBe(true);
    expect(abs.hasKernelForDispatchKey(DispatchKey.Autograd)).toBe(false);
    registerAutograd(d);
    expect(abs.hasKernelForDispatchKey(DispatchKey.Autograd)).toBe(true);
    expect(d.findSchemaOrThrow('aten::exp', '').entry.deferred).not.toBeNull();
    expect(d.findSchemaOrThrow('aten::exp', '').hasKernelForDispatchKey(DispatchKey.Autograd)).toBe(true);
    d.checkInvariants(abs);
  });
});
