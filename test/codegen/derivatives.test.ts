// Tests of the derivatives.yaml model (src/codegen/derivatives.ts) and the autograd emitter
// (src/codegen/dest/autograd.ts): the real file parses against the real native_functions.yaml, every validation
// rule fails with `<file>:<line> in '<op>(...)': <what>`, and formulas are analysed as torchgen does (saved
// arguments, outputs, metadata members).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitAutograd } from '../../src/codegen/dest/autograd.js';
import { addViewCopyDerivatives, parseDerivatives } from '../../src/codegen/derivatives.js';
import { NativeFunctionsError, parseNativeFunctions } from '../../src/codegen/model.js';

const NF = parseNativeFunctions(readFileSync(new URL('../../src/aten/native_functions.yaml', import.meta.url), 'utf8'));
const REAL = readFileSync(new URL('../../src/autograd/derivatives.yaml', import.meta.url), 'utf8');
const MUL = 'mul.Tensor(Tensor self, Tensor other) -> Tensor';

function errorOf(text: string): NativeFunctionsError {
  try {
    parseDerivatives(text, NF, 'd.yaml');
  } catch (e) {
    if (e instanceof NativeFunctionsError) return e;
    throw e;
  }
  throw new Error('expected a NativeFunctionsError');
}

describe('parseDerivatives', () => {
  it('reads the real file: one entry per overload, every schema in native_functions.yaml', () => {
    const infos = parseDerivatives(REAL, NF);
    expect(infos.length).toBe(REAL.match(/^- name:/gm)?.length);
    expect(new Set(infos.map((i) => i.opName)).size).toBe(infos.length);
    const mul = infos.find((i) => i.opName === 'mul.Tensor');
    expect(mul?.formulas.map((f) => f.arg)).toEqual(['self', 'other']);
    expect(infos.find((i) => i.opName === 'max.dim')?.outputDifferentiability).toEqual([true, false]);
  });

  it('names the file, line and operator of a bad entry', () => {
    const e = errorOf(`- name: ${MUL}\n  self: grad\n  selff: grad\n`);
    expect(e.message).toBe(
      "d.yaml:3 in 'mul.Tensor(...)': unknown key 'selff' (expected an argument of the schema: self, other, or one of name, output_differentiability, dispatch, result) (did you mean 'self'?)",
    );
  });

  it('rejects an operator that is not declared, or declared with another schema', () => {
    expect(errorOf('- name: mull.Tensor(Tensor self, Tensor other) -> Tensor\n  self: grad\n').message).toBe(
      "d.yaml:1 in 'mull.Tensor(...)': no operator 'mull.Tensor' in native_functions.yaml (did you mean 'mul.Tensor'?)",
    );
    expect(errorOf('- name: mul.Tensor(Tensor self, Tensor b) -> Tensor\n  self: grad\n').message).toBe(
      "d.yaml:1 in 'mul.Tensor(...)': schema differs from native_functions.yaml's 'mul.Tensor(Tensor self, Tensor other) -> Tensor'",
    );
  });

  it('rejects duplicates, formulas for non-tensors, empty formulas and bad output_differentiability', () => {
    expect(errorOf(`- name: ${MUL}\n  self: grad\n- name: ${MUL}\n  self: grad\n`).message).toBe(
      "d.yaml:3 in 'mul.Tensor(...)': 'mul.Tensor' already has an entry (line 1)",
    );
    const add = 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor';
    expect(errorOf(`- name: ${add}\n  alpha: grad\n`).message).toBe(
      "d.yaml:2 in 'add.Tensor(...)': 'alpha' is not a tensor argument (Scalar); only tensors have gradients",
    );
    expect(errorOf(`- name: ${MUL}\n  self: ''\n`).message).toBe(
      "d.yaml:2 in 'mul.Tensor(...)': the formula for 'self' must be a non-empty string",
    );
    expect(errorOf(`- name: ${MUL}\n  output_differentiability: [True, False]\n`).message).toBe(
      "d.yaml:2 in 'mul.Tensor(...)': 'output_differentiability' has 2 entries for 1 outputs",
    );
    expect(errorOf(`- name: ${MUL}\n  result: self_t * other_p\n`).message).toContain("'result:' is not supported yet");
  });
});

describe('emitAutograd', () => {
  const emit = (yaml: string): string => emitAutograd(NF, parseDerivatives(yaml, NF, 'd.yaml'));

  it('saves what a formula uses: tensors as SavedVariables, sizes on their own, outputs after the call', () => {
    const text = emit(
      `- name: ${MUL}\n  self: grad.mul(other)\n  other: grad.mul(self)\n` +
        '- name: sum(Tensor self, *, ScalarType? dtype=None) -> Tensor\n  self: grad.expand(self.sizes)\n' +
        '- name: exp(Tensor self) -> Tensor\n  self: grad.mul(result)\n',
    );
    expect(text).toContain('export class MulBackward0 extends Node {\n  other_: SavedVariable = NONE;\n  self_: SavedVariable = NONE;');
    expect(text).toContain('export class SumBackward0 extends Node {\n  self_sizes!: number[];');
    expect(text).not.toContain('SumBackward0 extends Node {\n  self_: SavedVariable');
    expect(text).toContain('    gradFn.result_ = new SavedVariable(result, true);');
    // the in-place overload reuses the functional formula and saves the original self as a clone
    expect(text).toMatch(
      /exp_: kernel\('exp_'[\s\S]*?checkInplace\(self, rg\);[\s\S]*?rebaseHistory\(self, gradFn\);[\s\S]*?new SavedVariable\(self, true\)/,
    );
    // out= overloads refuse tensors that require grad, out included
    expect(text).toContain("    if (anyRequiresGrad(self, other, out)) throw new Error(OUT_NOT_DIFFERENTIABLE('mul'));");
  });

  it('numbers node classes per name, as torchgen does', () => {
    const text = emit(
      '- name: div.Tensor(Tensor self, Tensor other) -> Tensor\n  self: grad.div(other)\n' +
        '- name: div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor\n  self: grad\n',
    );
    expect(text).toContain('export class DivBackward0 extends Node');
    // PyTorch's number: div.Scalar, which aten-ts lacks, is DivBackward1 (Note [Node numbers as PyTorch's]).
    expect(text).toContain('export class DivBackward2 extends Node');
  });

  it('fails on a name a formula cannot resolve', () => {
    expect(() => emit(`- name: ${MUL}\n  self: grad.mul(Other_1)\n`)).toThrow(
      "d.yaml:1 in 'mul.Tensor(...)': formula for 'self' uses unknown name 'Other_1'",
    );
  });
});

describe('addViewCopyDerivatives (Note [view_copy derivatives])', () => {
  const infos = addViewCopyDerivatives(parseDerivatives(REAL, NF), NF);

  it("gives every view_copy operator its view's formulas, except those with an entry of their own", () => {
    const viewCopies = NF.filter((nf) => nf.tags.includes('view_copy')).map((nf) => nf.opName);
    expect(viewCopies).toContain('unbind_copy.int');
    for (const op of viewCopies) expect(infos.some((i) => i.opName === op)).toBe(true);
    const expand = infos.find((i) => i.opName === 'expand_copy');
    expect(expand?.viewCopyOf).toBe('expand');
    expect(expand?.formulas).toEqual(infos.find((i) => i.opName === 'expand')?.formulas);
    expect(infos.find((i) => i.opName === 'narrow_copy')?.viewCopyOf).toBeUndefined();
  });

  it("names the node after the view's, with _copy (as torchgen)", () => {
    const text = emitAutograd(NF, infos);
    expect(text).toContain("return 'ExpandBackward0_copy';");
    expect(text).toContain("return 'SqueezeBackward2_copy';");
    expect(text).toContain("return 'UnbindBackward0_copy';");
    expect(text).toContain("return 'NarrowCopyBackward0';");
  });

  it('fails on a view_copy operator whose view has no formula', () => {
    const withoutExpand = parseDerivatives(REAL, NF).filter((i) => i.opName !== 'expand');
    expect(() => addViewCopyDerivatives(withoutExpand, NF)).toThrow(
      /expand_copy\(\.\.\.\)': a view_copy operator whose view 'expand' has no derivatives.yaml entry/,
    );
  });
});
