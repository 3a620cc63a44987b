// Note [Deferred schemas] (src/dispatch/Dispatcher.ts): the generated aten schemas are parsed on first use. An
// operator not yet used has a schema for lookups without a parse; its first call, boxed call, schema read or
// table read parses it and builds its table; registrations made before that are all honoured.
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { Library } from '../../src/dispatch/Library.js';
import { DispatchKey } from '../../src/c10/DispatchKey.js';
import { registerAten } from '../../src/aten/register.js';
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
