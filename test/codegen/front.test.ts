// The front-end emitter (src/codegen/api/python.ts, dest/python.ts): bindings per name with the out= overload folded in, the
// TypeScript overloads generated from the schemas, and its errors.
import { describe, expect, it } from 'vitest';
import { bindings, jsName } from '../../src/codegen/api/python.js';
import { emitFunctions, emitMethods } from '../../src/codegen/dest/python.js';
import { NativeFunctionsError, parseNativeFunctions } from '../../src/codegen/model.js';

const YAML = `- func: sum.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
  variants: function, method
  dispatch:
    CPU: binary.sum
- func: sum.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: binary.sumOut
- func: view(Tensor(a) self, SymInt[] size) -> Tensor(a)
  variants: method
  dispatch:
    CompositeExplicitAutograd: shape.view
`;

describe('front-end emitter', () => {
  const fns = parseNativeFunctions(YAML, 'nf.yaml');

  it('groups overloads per name and folds the out= overload into its functional one', () => {
    const fs = bindings(fns, 'function');
    expect(fs.map((b) => [b.name, b.overloads.map((o) => [o.nf.opName, o.out?.opName ?? null])])).toEqual([
      ['sum', [['sum.dim', 'sum.out']]],
    ]);
    expect(bindings(fns, 'method').map((b) => b.name)).toEqual(['sum', 'view']);
  });

  it('generates one TypeScript overload per number of positional arguments, and varargs forms', () => {
    const f = emitFunctions(fns);
    expect(f).toContain(
      'export function sum(input: Tensor, dim: number | readonly number[] | null, options?: { keepdim?: boolean; dtype?: DtypeLike | null; out?: Tensor }): Tensor;',
    );
    expect(f).toContain(
      'export function sum(input: Tensor, dim: number | readonly number[] | null, keepdim?: boolean, options?: { keepdim?: boolean; dtype?: DtypeLike | null; out?: Tensor }): Tensor;',
    );
    expect(f).toContain(
      'const SIGS_sum = ["(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"];',
    );
    const m = emitMethods(fns);
    expect(m).toContain('  view(...size: number[]): Tensor;');
    expect(m).toContain('  view(size: readonly number[]): Tensor;');
    expect(m).toContain('    view: { value: method_view, writable: true, configurable: true },');
  });

  it("gives single-signature bindings PyTorch's parse errors, built only on the error path", () => {
    const f = emitFunctions(fns);
    // sum has one signature: a failed match goes to its badCall description, not to the "invalid combination" text
    expect(f).toContain('  return bad_sum(a);');
    expect(f).toContain('function bad_sum(a: readonly unknown[]): never {');
    expect(f).toContain('    { name: "input", type: "Tensor", check: (v) => isTensor(v), optional: false, kwOnly: false },');
    expect(f).toContain(
      '    { name: "dim", type: "tuple of ints", check: (v) => (v === null || (isInt(v) || isIntList(v))), optional: false, kwOnly: false, list: \'int\' },',
    );
    expect(f).toContain("    { name: 'out', type: 'Tensor', check: (v) => v === null || isTensor(v), optional: true, kwOnly: true },");
    expect(f).toContain('  ], false, SIGS_sum);');
    expect(f).not.toContain('noMatch(');
    // view takes varargs; a method without arguments is METH_NOARGS in PyTorch (CPython's texts, no signature list)
    const noargs = parseNativeFunctions(
      `- func: t(Tensor(a) self) -> Tensor(a)\n  variants: method\n  dispatch:\n    CompositeExplicitAutograd: shape.t\n`,
      'nf.yaml',
    );
    const m = emitMethods([...fns, ...noargs]);
    expect(m).toContain('  ], true, SIGS_view);');
    expect(m).toContain('  return noArgs("t", a);');
    expect(m).toContain('    if (o !== undefined) checkNoKw("t", o);');
    expect(m).not.toContain('SIGS_t ');
  });

  it('names functions verbatim from the schema', () => {
    // Operator names stay verbatim (DESIGN: names as PyTorch users type them).
    expect([jsName('empty_like'), jsName('_to_copy'), jsName('add_'), jsName('as_strided')]).toEqual([
      'empty_like',
      '_to_copy',
      'add_',
      'as_strided',
    ]);
  });

  it('rejects a binding it cannot type, naming the entry', () => {
    const bad = parseNativeFunctions(`- func: f(Tensor self, complex c) -> Tensor\n  dispatch:\n    CPU: binary.f\n`, 'nf.yaml');
    expect(() => emitFunctions(bad)).toThrow(NativeFunctionsError);
    expect(() => emitFunctions(bad)).toThrow("nf.yaml:1 in 'f(...)': unsupported argument type 'complex' for a Python binding");
  });
});
