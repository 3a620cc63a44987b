// Tests of the native_functions.yaml model (src/codegen/model.ts): the real file parses, and every validation
// rule fails with `<file>:<line> in '<func>': <what>`, as torchgen/model.py's asserts do.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NativeFunctionsError, parseNativeFunctions } from '../../src/codegen/model.js';
import { parseSchema } from '../../src/schema/index.js';

const REAL = readFileSync(new URL('../../src/aten/native_functions.yaml', import.meta.url), 'utf8');

const ADD = `- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  variants: function, method
  dispatch:
    CPU, Meta: binary.add
`;
const ADD_OUT = `- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: binary.addStructured
`;
const MAX_OUT = `- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)
  structured: True
  precomputed:
  - dim -> int dim
  dispatch:
    CPU: reduce.maxDimStructured
`;
/** add.Tensor without kernels: a structured_delegate takes them from the out= entry. */
const ADD_DELEGATE = `- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  variants: function, method
`;

function errorOf(text: string): NativeFunctionsError {
  try {
    parseNativeFunctions(text, 'nf.yaml');
  } catch (e) {
    if (e instanceof NativeFunctionsError) return e;
    throw e;
  }
  throw new Error('expected a NativeFunctionsError');
}

describe('parseNativeFunctions on src/aten/native_functions.yaml', () => {
  const fns = parseNativeFunctions(REAL);

  it('declares every operator once, with its handle name', () => {
    expect(fns.length).toBe(REAL.match(/^- func:/gm)?.length);
    expect(new Set(fns.map((f) => f.opName)).size).toBe(fns.length);
    const add = fns.find((f) => f.opName === 'add_.Tensor');
    expect(add?.handleName).toBe('add__Tensor');
    expect(add?.variants).toEqual(['method']);
    expect(add?.tags).toEqual(['pointwise']);
    expect(add?.dispatch).toEqual([]);
    expect(add?.structuredDelegate).toBe('add.out');
    const addOut = fns.find((f) => f.opName === 'add.out');
    expect([addOut?.structured, addOut?.structuredInherits]).toEqual([true, 'TensorIteratorBase']);
    expect(addOut?.dispatch).toEqual([{ key: 'CPU', kernel: { module: 'BinaryOps', fn: 'addStructured' } }]);
    expect(new Set(fns.map((f) => f.handleName)).size).toBe(fns.length);
  });

  it('records the line of each func', () => {
    const lines = REAL.split('\n');
    for (const f of fns) expect(lines[f.line - 1]).toBe(`- func: ${f.funcText}`);
  });

  it('keeps the schema text verbatim and parses it', () => {
    for (const f of fns) {
      expect(REAL).toContain(`- func: ${f.funcText}\n`);
      expect(parseSchema(f.func.toString()).toString()).toBe(f.func.toString());
      expect(f.opName).toBe(f.funcText.slice(0, f.funcText.indexOf('(')));
    }
  });
});

describe('parseNativeFunctions validation', () => {
  it('accepts a minimal entry and a structured delegate', () => {
    const fns = parseNativeFunctions(`${ADD_OUT}${ADD_DELEGATE}  structured_delegate: add.out\n`, 'nf.yaml');
    expect(fns.map((f) => [f.opName, f.structured, f.structuredDelegate])).toEqual([
      ['add.out', true, null],
      ['add.Tensor', false, 'add.out'],
    ]);
  });

  it('rejects an unknown key with a suggestion', () => {
    const e = errorOf(`${ADD_OUT}${ADD_DELEGATE}  structured_delgate: add.out\n`);
    expect(e.message).toBe("nf.yaml:8 in 'add.Tensor(...)': unknown key 'structured_delgate' (did you mean 'structured_delegate'?)");
    expect(e.line).toBe(8);
  });

  it('rejects an unknown key without a close match', () => {
    expect(errorOf(`${ADD}  python_module: nn\n`).message).toBe("nf.yaml:5 in 'add.Tensor(...)': unknown key 'python_module'");
  });

  it('rejects a schema that does not parse, with the SchemaParseError text', () => {
    const e = errorOf(`${ADD}- func: mul.Tensor(Tensor self, Tensor other -> Tensor\n  dispatch:\n    CPU: binary.mul\n`);
    expect(e.message).toBe("nf.yaml:5 in 'mul.Tensor(...)': invalid schema: SchemaParseError: expected ) but found 'arrow'");
    expect(e.line).toBe(5);
  });

  it('rejects an unknown dispatch key', () => {
    expect(errorOf(ADD.replace('CPU, Meta', 'CPU, Mta')).message).toBe(
      "nf.yaml:4 in 'add.Tensor(...)': unknown dispatch key 'Mta' (did you mean 'Meta'?)",
    );
  });

  it('rejects a dispatch key the tensor core does not register kernels at', () => {
    expect(errorOf(ADD.replace('CPU, Meta', 'CUDA')).message).toBe(
      "nf.yaml:4 in 'add.Tensor(...)': dispatch key 'CUDA' is not one the tensor core registers kernels at " +
        '(expected one of BackendSelect, CPU, Meta, CompositeExplicitAutograd, CompositeImplicitAutograd)',
    );
  });

  it('rejects a kernel reference that is not module.function', () => {
    expect(errorOf(ADD.replace('binary.add', 'add')).message).toBe(
      "nf.yaml:4 in 'add.Tensor(...)': bad kernel reference 'add' (expected '<module>.<function>', e.g. 'BinaryOps.add')",
    );
  });

  it('rejects a kernel reference to a module that is not a file of src/kernels', () => {
    const kernelModules = ['BinaryOps', 'TensorShape', 'UnaryOps'];
    expect(() => parseNativeFunctions(ADD.replace('binary.add', 'BinaryOps.add'), 'nf.yaml', { kernelModules })).not.toThrow();
    let error: unknown;
    try {
      parseNativeFunctions(ADD.replace('binary.add', 'BinaryOp.add'), 'nf.yaml', { kernelModules });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NativeFunctionsError);
    expect((error as Error).message).toBe(
      "nf.yaml:4 in 'add.Tensor(...)': bad kernel reference 'BinaryOp.add': unknown kernel module 'BinaryOp' " +
        "(expected a file of src/kernels: BinaryOps, TensorShape, UnaryOps) (did you mean 'BinaryOps'?)",
    );
  });

  it('rejects a structured_delegate that names no function', () => {
    expect(errorOf(`${ADD_OUT}${ADD_DELEGATE}  structured_delegate: add.outt\n`).message).toBe(
      "nf.yaml:8 in 'add.Tensor(...)': structured_delegate 'add.outt' names no function in nf.yaml (did you mean 'add.out'?)",
    );
  });

  it('rejects a structured_delegate that names a function which is not structured', () => {
    const text = `${ADD_OUT.replace('  structured: True\n  structured_inherits: TensorIteratorBase\n', '')}${ADD_DELEGATE}  structured_delegate: add.out\n`;
    expect(errorOf(text).message).toBe(
      "nf.yaml:6 in 'add.Tensor(...)': structured_delegate 'add.out' is not a structured out= overload " +
        "(expected 'structured: True' on it at nf.yaml:1)",
    );
  });

  it('rejects kernels on a structured_delegate, a Meta kernel on a structured out=, and a bad structured_inherits', () => {
    expect(errorOf(`${ADD_OUT}${ADD}  structured_delegate: add.out\n`).message).toBe(
      "nf.yaml:8 in 'add.Tensor(...)': 'dispatch' is not allowed with 'structured_delegate' (its kernels are generated from the structured out= entry)",
    );
    expect(errorOf(ADD_OUT.replace('CPU: binary', 'CPU, Meta: binary')).message).toBe(
      "nf.yaml:5 in 'add.out(...)': dispatch key 'Meta' on a structured out= entry (expected CPU; the Meta kernel is generated)",
    );
    expect(errorOf(ADD_OUT.replace('TensorIteratorBase', 'TensorIteratorBas')).message).toBe(
      "nf.yaml:3 in 'add.out(...)': unsupported structured_inherits 'TensorIteratorBas' (expected one of TensorIteratorBase) (did you mean 'TensorIteratorBase'?)",
    );
  });

  it('parses a structured entry without structured_inherits (MetaBase) and its precomputed lines', () => {
    const text = `${MAX_OUT}- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  structured_delegate: max.dim_max
`;
    const [out, fn] = parseNativeFunctions(text, 'nf.yaml');
    expect([out?.structured, out?.structuredInherits, fn?.structuredDelegate]).toEqual([true, null, 'max.dim_max']);
    expect(out?.precomputed.map((p) => [p.replace, p.with.map((a) => `${a.type.str()} ${a.name}`)])).toEqual([['dim', ['int dim']]]);
    expect(fn?.precomputed).toEqual([]);
    // several replacements of one argument, as torchgen allows (`kernel_size -> int kH, int kW`)
    const two = parseNativeFunctions(MAX_OUT.replace('dim -> int dim', 'dim -> int dim, bool wrapped'), 'nf.yaml')[0];
    expect(two?.precomputed[0]?.with.map((a) => a.name)).toEqual(['dim', 'wrapped']);
  });

  it('rejects bad precomputed lines, with file:line', () => {
    expect(errorOf(MAX_OUT.replace('  - dim -> int dim', '  - dimm -> int dim')).message).toBe(
      "nf.yaml:4 in 'max.dim_max(...)': precomputed line 'dimm -> int dim' replaces 'dimm', which is not an argument of the schema (did you mean 'dim'?)",
    );
    expect(errorOf(MAX_OUT.replace('  - dim -> int dim', '  - int extra')).message).toBe(
      "nf.yaml:4 in 'max.dim_max(...)': precomputed line 'int extra' adds values without replacing an argument, which is not generated yet (expected '<arg> -> <type> <name>')",
    );
    expect(errorOf(MAX_OUT.replace('  - dim -> int dim', '  - dim -> int')).message).toMatch(
      /^nf\.yaml:4 in 'max\.dim_max\(\.\.\.\)': precomputed line 'dim -> int': invalid replacement: SchemaParseError: /,
    );
    expect(errorOf(MAX_OUT.replace('  structured: True\n', '')).message).toBe(
      "nf.yaml:2 in 'max.dim_max(...)': 'precomputed' is only allowed with 'structured: True'",
    );
    expect(
      errorOf(MAX_OUT.replace('  structured: True\n', '  structured: True\n  structured_inherits: TensorIteratorBase\n')).message,
    ).toBe(
      "nf.yaml:4 in 'max.dim_max(...)': 'precomputed' is generated for structured kernels without 'structured_inherits' only (a TensorIteratorBase meta returns its iterator)",
    );
    expect(errorOf(MAX_OUT.replace('  - dim -> int dim', '  - dim -> int dim\n  - dim -> int d2')).message).toBe(
      "nf.yaml:5 in 'max.dim_max(...)': precomputed line 'dim -> int d2' replaces 'dim' twice",
    );
  });

  it('rejects structured on a functional op', () => {
    expect(errorOf(`${ADD}  structured: True\n`).message).toBe(
      "nf.yaml:5 in 'add.Tensor(...)': 'structured: True' is only allowed on out= functions, not a functional one (did you mean 'structured_delegate'?)",
    );
  });

  it('rejects a duplicate overload', () => {
    const e = errorOf(`${ADD}\n${ADD}`);
    expect(e.message).toBe("nf.yaml:6 in 'add.Tensor(...)': duplicate overload 'add.Tensor' (first declared at nf.yaml:1)");
  });

  it('rejects two composite keys', () => {
    const text = `- func: t(Tensor(a) self) -> Tensor(a)
  dispatch:
    CompositeExplicitAutograd: shape.t
    CompositeImplicitAutograd: shape.t
`;
    expect(errorOf(text).message).toBe(
      "nf.yaml:3 in 't(...)': two composite keys 'CompositeExplicitAutograd' and 'CompositeImplicitAutograd' (at most one composite key per function)",
    );
  });

  it('rejects a dispatch key listed twice', () => {
    expect(errorOf(`${ADD}    CPU: binary.mul\n`).message).toBe("nf.yaml:5 in 'add.Tensor(...)': dispatch key 'CPU' listed twice");
  });

  it('rejects an unknown variant and a missing dispatch', () => {
    expect(errorOf(ADD.replace('function, method', 'function, methd')).message).toBe(
      "nf.yaml:2 in 'add.Tensor(...)': unknown variant 'methd' (expected 'function' or 'method') (did you mean 'method'?)",
    );
    expect(errorOf('- func: t(Tensor(a) self) -> Tensor(a)\n  variants: method\n').message).toBe(
      "nf.yaml:1 in 't(...)': missing 'dispatch' (expected e.g. `dispatch: {CPU, Meta: BinaryOps.add}`)",
    );
  });

  it('rejects an entry without func and invalid YAML', () => {
    expect(errorOf(`${ADD}- variants: method\n`).message).toBe("nf.yaml:5 in '<entry 2>': missing 'func' (expected `func: <schema>`)");
    expect(errorOf(`${ADD}  dispatch: [\n`).message).toMatch(/^nf\.yaml:\d+ in '<file>': invalid YAML: /);
  });
});
