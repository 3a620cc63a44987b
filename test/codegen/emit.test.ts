// Tests of the emitter (src/codegen/emit.ts) and the driver (src/cli/codegen.ts): the committed
// src/generated/aten.ts is exactly what the YAML generates, signatures follow Note [Which arguments are
// optional], and `--check` reports a stale file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitAten, GENERATED_HEADER, paramName } from '../../src/codegen/emit.js';
import { parseNativeFunctions } from '../../src/codegen/model.js';
import { DERIVATIVES_PATH, generate, main, OUTPUT_PATH, YAML_PATH } from '../../src/cli/codegen.js';
import { DECLS } from '../../src/generated/aten.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

function handleLine(yaml: string): string {
  const text = emitAten(parseNativeFunctions(yaml, 'nf.yaml'));
  const line = text.split('\n').find((l) => l.includes(': OperatorHandle<'));
  return (line ?? '').trim();
}

describe('emitAten', () => {
  it('reproduces the committed src/generated/aten.ts exactly', () => {
    const text = emitAten(parseNativeFunctions(read(YAML_PATH), YAML_PATH));
    expect(text).toBe(read(OUTPUT_PATH));
    expect(generate()).toBe(text);
    expect(text.startsWith(`${GENERATED_HEADER}\n`)).toBe(true);
  });

  it('generates a declaration per YAML entry, in file order', () => {
    const fns = parseNativeFunctions(read(YAML_PATH));
    expect(Object.keys(DECLS)).toEqual(fns.map((f) => f.handleName));
    expect(DECLS.add_Tensor.schema).toBe('add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(Object.keys(DECLS.empty_memory_format.kernels)).toEqual(['BackendSelect', 'CPU', 'Meta']);
  });

  it('maps schema types and makes only trailing defaulted optionals omittable', () => {
    expect(
      handleLine(`- func: slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)
  dispatch:
    CompositeExplicitAutograd: shape.slice
`),
    ).toBe('slice_Tensor: OperatorHandle<(self: Tensor, dim: number, start: Opt<number>, end: Opt<number>, step: number) => Tensor>;');
    expect(
      handleLine(`- func: f.x(Tensor[] tensors, Scalar s, float[] fs, bool[] bs, str mode, Generator? generator, *, MemoryFormat? memory_format=None, Device? device=None) -> (Tensor, Scalar)
  dispatch:
    CPU: composite.f
`),
    ).toBe(
      'f_x: OperatorHandle<(tensors: Tensor[], s: number | boolean, fs: number[], bs: boolean[], mode: string, generator: Opt<Generator>, memoryFormat?: Opt<number>, device?: Opt<Device>) => [Tensor, ScalarValue]>;',
    );
  });

  it('rejects a type it cannot map, with file:line', () => {
    expect(() =>
      emitAten(parseNativeFunctions('\n- func: g(Tensor self, complex c) -> Tensor\n  dispatch:\n    CPU: composite.g\n', 'nf.yaml')),
    ).toThrow(/^nf\.yaml:2 in 'g\(\.\.\.\)': unsupported argument type 'complex'/);
  });

  it('camel-cases parameter names and escapes reserved words', () => {
    expect(paramName('pin_memory')).toBe('pinMemory');
    expect(paramName('dim0')).toBe('dim0');
    expect(paramName('default')).toBe('default_');
  });
});

describe('src/cli/codegen.ts', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('writes the output, then --check passes; a stale file fails --check and names the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'aten-codegen-'));
    mkdirSync(join(dir, 'src/aten'), { recursive: true });
    writeFileSync(join(dir, YAML_PATH), read(YAML_PATH));
    mkdirSync(join(dir, 'src/autograd'), { recursive: true });
    writeFileSync(join(dir, DERIVATIVES_PATH), read(DERIVATIVES_PATH));
    const errors: string[] = [];
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    expect(main(['--check'], dir)).toBe(1);
    expect(main([], dir)).toBe(0);
    expect(readFileSync(join(dir, OUTPUT_PATH), 'utf8')).toBe(read(OUTPUT_PATH));
    expect(main(['--check'], dir)).toBe(0);
    writeFileSync(join(dir, OUTPUT_PATH), '// edited by hand\n');
    expect(main(['--check'], dir)).toBe(1);
    expect(errors.at(-1)).toBe(
      'codegen: src/generated/aten.ts is stale (it differs from what src/aten/native_functions.yaml generates); run npm run codegen',
    );
    writeFileSync(join(dir, YAML_PATH), '- func: t(Tensor self) -> Tensor\n  dispatch:\n    CUDA: shape.t\n');
    expect(main([], dir)).toBe(1);
    expect(errors.at(-1)).toMatch(/^codegen: src\/aten\/native_functions\.yaml:3 in 't\(\.\.\.\)': dispatch key 'CUDA'/);
    expect(main(['--frobnicate'], dir)).toBe(2);
  });
});
