// Structured kernels (Note [Structured kernels in aten-ts]): the generated functional / in-place / out=
// wrappers for CPU, the Meta kernels that run only the meta function, and the direct `atenCpu` entry points.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { atenCpu } from '../../src/aten/ops.js';
import { ScalarType } from '../../src/c10/index.js';
import { emitAten } from '../../src/codegen/emit.js';
import { parseNativeFunctions } from '../../src/codegen/model.js';
import { checkInplace } from '../../src/codegen/structured.js';
import { TensorIterator, setWarningHandler } from '../../src/iter/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

describe('generated structured wrappers', () => {
  it('functional, in-place and out= variants agree', () => {
    const a = torch.tensor([[1, 2, 3]], { dtype: 'float32' });
    const b = torch.tensor([[10], [20]], { dtype: 'float32' });
    expect(torch.add(a, b, { alpha: 2 }).tolist()).toEqual([[21, 22, 23], [41, 42, 43]]);
    const out = torch.empty(2, 3);
    expect(torch.sub(a, b, { out })).toBe(out);
    expect(out.tolist()).toEqual([[-9, -8, -7], [-19, -18, -17]]);
    const c = torch.ones(2, 3);
    const v = c._version;
    expect(c.add_(a)).toBe(c);
    expect(c._version).toBe(v + 1);
    expect(c.tolist()).toEqual([[2, 3, 4], [2, 3, 4]]);
  });

  it('names atenCpu entries of overloaded structured ops by their handle names', () => {
    const x = torch.tensor([1, 2, 3]);
    expect(atenCpu.eq_Tensor(x, torch.tensor([1, 0, 3])).tolist()).toEqual([true, false, true]);
    expect(atenCpu.gt_Scalar(x, 1).tolist()).toEqual([false, true, true]);
    const out = torch.empty(0, { dtype: 'bool' });
    expect(atenCpu.le_Scalar_out(out, x, 2)).toBe(out);
    expect(out.tolist()).toEqual([true, true, false]);
    // a name with one structured overload per kind keeps at::cpu's plain name
    expect(atenCpu.exp(torch.tensor([0])).tolist()).toEqual([1]);
    expect('add' in atenCpu && 'add_out' in atenCpu && !('eq' in atenCpu)).toBe(true);
  });

  it('the out= wrapper resizes with PyTorch\'s deprecation warning', () => {
    const warnings: string[] = [];
    const prev = setWarningHandler((m) => warnings.push(m));
    try {
      const out = torch.empty(5);
      torch.add(torch.ones(2, 4), torch.ones(2, 4), { out });
      expect(out.shape).toEqual([2, 4]);
    } finally {
      setWarningHandler(prev);
    }
    expect(warnings).toEqual([
      'An output with one or more elements was resized since it had shape [5], which does not match the required output shape [2, 4]. ' +
        'This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. ' +
        'You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).',
    ]);
  });

  it('Meta kernels run the meta function only', () => {
    const a = torch.empty(2, 1, { device: 'meta', dtype: 'int32' });
    const b = torch.empty(3, { device: 'meta', dtype: 'float32' });
    const r = torch.div(a, b);
    expect([r.isMeta(), r.shape, r.dtype]).toEqual([true, [2, 3], ScalarType.Float]);
    expect(() => torch.empty(3, { device: 'meta' }).mul_(torch.empty(2, 3, { device: 'meta' }))).toThrow(
      "output with shape [3] doesn't match the broadcast shape [2, 3]",
    );
    expect(() => torch.sub(torch.empty(2, { device: 'meta', dtype: 'bool' }), torch.empty(2, { device: 'meta', dtype: 'bool' }))).toThrow(
      'Subtraction, the `-` operator, with two bool tensors is not supported.',
    );
  });

  it('atenCpu calls the CPU kernels directly, defaults filled (at::cpu::add, add_out, add_outf)', () => {
    const a = torch.tensor([1, 2]);
    const b = torch.tensor([3, 4]);
    expect(atenCpu.add(a, b).tolist()).toEqual([4, 6]);
    expect(atenCpu.add(a, b, 10).tolist()).toEqual([31, 42]);
    const out = torch.empty(2, { dtype: 'int64' });
    expect(atenCpu.add_out(out, a, b)).toBe(out);
    expect(atenCpu.mul_outf(a, b, out).tolist()).toEqual([3, 8]);
    const c = torch.tensor([1, 1]);
    expect(atenCpu.sub_(c, a).tolist()).toEqual([0, -1]);
    expect(atenCpu.div(a, b).dtype).toBe(ScalarType.Float);
  });

  it("check_inplace rejects an output that is not self, with PyTorch's texts", () => {
    const self = torch.ones(2, { dtype: 'int64' }) as Tensor;
    expect(() => checkInplace(self, TensorIterator.binaryOp(null, torch.ones(2), torch.ones(2)))).toThrow(
      'Bad in-place call: input tensor dtype Long and output tensor dtype Float should match',
    );
    expect(() => checkInplace(self, TensorIterator.binaryOp(null, torch.ones(2, 2, { dtype: 'int64' }), self))).toThrow(
      'Bad in-place call: input tensor size [2] and output tensor size [2, 2] should match',
    );
  });

  it('emits the wrappers and registers CPU and Meta kernels for every member of the group', () => {
    const yaml = `- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: binary.addStructured
`;
    const text = emitAten(parseNativeFunctions(yaml, 'nf.yaml'));
    expect(text).toContain('function cpu_add_Tensor(_ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: number | boolean): Tensor {');
    expect(text).toContain('function meta_add_out(_ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: number | boolean, out: Tensor): Tensor {');
    expect(text).toContain('kernels: { CPU: cpu_add_Tensor, Meta: meta_add_Tensor },');
    expect(text).toContain('add: (self: Tensor, other: Tensor, alpha: number | boolean = 1): Tensor => cpu_add_Tensor(NO_KEYS, self, other, alpha),');
    expect(text).toContain('add_out: (out: Tensor, self: Tensor, other: Tensor, alpha: number | boolean = 1): Tensor => cpu_add_out(NO_KEYS, self, other, alpha, out),');
  });
});
