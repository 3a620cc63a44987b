// Structured kernels (Note [Structured kernels in aten-ts]): the generated functional / in-place / out=
// wrappers for CPU, the Meta kernels that run only the meta function, and the direct `atenCpu` entry points.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { aten } from '../../src/generated/Operators.js';
import { atenCpu } from '../../src/generated/CPUFunctions.js';
import { ScalarType } from '../../src/c10/index.js';
import { emitCPUFunctions, emitRegisterDispatchKey } from '../../src/codegen/dest/RegisterDispatchKey.js';
import { parseNativeFunctions, type NativeFunction } from '../../src/codegen/model.js';
import { checkInplace, checkInplaceOutput } from '../../src/kernels/TensorMeta.js';
import { TensorIterator } from '../../src/iter/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

/** The generated CPU and Meta registrations and the at::cpu entry points of `fns`, as one text. */
function emitStructured(fns: readonly NativeFunction[]): string {
  return [emitRegisterDispatchKey(fns, 'CPU'), emitRegisterDispatchKey(fns, 'Meta'), emitCPUFunctions(fns)].join('\n');
}

describe('generated structured wrappers', () => {
  it('functional, in-place and out= variants agree', () => {
    const a = torch.tensor([[1, 2, 3]], { dtype: 'float32' });
    const b = torch.tensor([[10], [20]], { dtype: 'float32' });
    expect(torch.add(a, b, { alpha: 2 }).tolist()).toEqual([
      [21, 22, 23],
      [41, 42, 43],
    ]);
    const out = torch.empty(2, 3);
    expect(torch.sub(a, b, { out })).toBe(out);
    expect(out.tolist()).toEqual([
      [-9, -8, -7],
      [-19, -18, -17],
    ]);
    const c = torch.ones(2, 3);
    const v = c._version;
    expect(c.add_(a)).toBe(c);
    expect(c._version).toBe(v + 1);
    expect(c.tolist()).toEqual([
      [2, 3, 4],
      [2, 3, 4],
    ]);
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

  it("the out= wrapper resizes with PyTorch's deprecation warning", () => {
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
    expect([r.isMeta(), r.shape, r.scalarType]).toEqual([true, [2, 3], ScalarType.Float]);
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
    expect(atenCpu.div(a, b).scalarType).toBe(ScalarType.Float);
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
    const text = emitStructured(parseNativeFunctions(yaml, 'nf.yaml'));
    expect(text).toContain('function cpu_add_Tensor(_ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: number | boolean): Tensor {');
    expect(text).toContain(
      'function meta_add_out(_ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: number | boolean, out: Tensor): Tensor {',
    );
    expect(text).toContain('  add_Tensor: cpu_add_Tensor,');
    expect(text).toContain('  add_Tensor: meta_add_Tensor,');
    expect(text).toContain(
      'add: (self: Tensor, other: Tensor, alpha: number | boolean = 1): Tensor => RegisterCPU.cpu_add_Tensor(NO_KEYS, self, other, alpha),',
    );
    expect(text).toContain(
      'add_out: (out: Tensor, self: Tensor, other: Tensor, alpha: number | boolean = 1): Tensor => RegisterCPU.cpu_add_out(NO_KEYS, self, other, alpha, out),',
    );
  });
});

// Note [Structured kernels without a TensorIterator]: MetaBase kernels (max.dim_max, min.dim_min, cumsum.out,
// cumprod.out) whose meta sets the outputs; several outputs, `precomputed`.
describe('generated wrappers of MetaBase structured kernels', () => {
  const MAX = `- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  structured_delegate: max.dim_max
- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)
  structured: True
  precomputed:
  - dim -> int dim
  dispatch:
    CPU: reduce.maxDimStructured
`;
  const CUMSUM = `- func: cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)
  structured_delegate: cumsum.out
- func: cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: reduce.cumsumStructured
`;

  it('emits allocate / check_inplace / resize_out per output and passes precomputed values to impl', () => {
    const text = emitStructured(parseNativeFunctions(MAX + CUMSUM, 'nf.yaml'));
    const body = (name: string): string => {
      const start = text.indexOf(`function ${name}(`);
      return text.slice(start, text.indexOf('\n}\n', start) + 3);
    };
    expect(body('cpu_max_dim'))
      .toBe(`function cpu_max_dim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim: boolean): [Tensor, Tensor] {
  const k = reduce.maxDimStructured;
  const m = k.meta(null, self, dim, keepdim);
  const out0 = allocateStructuredOutput(m, 0);
  const out1 = allocateStructuredOutput(m, 1);
  k.impl([out0, out1], self, m.precomputed.dim, keepdim);
  return [out0, out1];
}
`);
    expect(body('meta_max_dim_max'))
      .toBe(`function meta_max_dim_max(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim: boolean, max: Tensor, maxValues: Tensor): [Tensor, Tensor] {
  const k = reduce.maxDimStructured;
  const m = k.meta([max, maxValues], self, dim, keepdim);
  resizeStructuredOutput(max, m, 0);
  resizeStructuredOutput(maxValues, m, 1);
  return [max, maxValues];
}
`);
    expect(body('cpu_cumsum_')).toBe(`function cpu_cumsum_(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: Opt<ScalarType>): Tensor {
  const k = reduce.cumsumStructured;
  const m = k.meta([self], self, dim, dtype);
  checkInplaceOutput(self, m, 0);
  k.impl([self], self, dim, dtype);
  return self;
}
`);
    expect(text).toContain(
      "import { allocateStructuredOutput, checkInplaceOutput, resizeStructuredOutput } from '../kernels/TensorMeta.js';",
    );
    expect(text).toContain(
      '  max_out: (max: Tensor, maxValues: Tensor, self: Tensor, dim: number, keepdim: boolean = false): [Tensor, Tensor] => RegisterCPU.cpu_max_dim_max(NO_KEYS, self, dim, keepdim, max, maxValues),',
    );
    expect(text).toContain(
      '  max_outf: (self: Tensor, dim: number, keepdim: boolean, max: Tensor, maxValues: Tensor): [Tensor, Tensor] => RegisterCPU.cpu_max_dim_max(NO_KEYS, self, dim, keepdim, max, maxValues),',
    );
    expect(text).toContain('  max_dim: cpu_max_dim,');
    expect(text).toContain('  max_dim: meta_max_dim,');
  });

  it('rejects several out tensors on a TensorIteratorBase kernel and an in-place overload of a multi-output one', () => {
    const two = MAX.replace('  precomputed:\n  - dim -> int dim\n', '  structured_inherits: TensorIteratorBase\n');
    expect(() => emitStructured(parseNativeFunctions(two, 'nf.yaml'))).toThrow(
      "nf.yaml:3 in 'max.dim_max(...)': a structured_inherits: TensorIteratorBase kernel has exactly one out= tensor (several outputs need a MetaBase kernel: drop structured_inherits)",
    );
    const inplace = `${MAX}- func: max_(Tensor(a!) self, int dim, bool keepdim=False) -> Tensor(a!)\n  structured_delegate: max.dim_max\n`;
    expect(() => emitStructured(parseNativeFunctions(inplace, 'nf.yaml'))).toThrow(
      "nf.yaml:9 in 'max_(...)': returns 1 values but its structured out= overload 'max.dim_max' writes 2",
    );
  });

  it('max.dim_max through the dispatcher: both outputs resized with a warning each, dtype checked per output, versions bumped', () => {
    const x = torch.tensor(
      [
        [1, 5, 3],
        [4, 2, 6],
      ],
      { dtype: 'float32' },
    );
    const values = torch.full([5], 7, { dtype: 'float32' });
    const indices = torch.empty(0, { dtype: 'int64' });
    const warnings: string[] = [];
    const prev = setWarningHandler((m) => warnings.push(m));
    const [v0, i0] = [values._version, indices._version];
    try {
      const [v, i] = aten().max_dim_max.call(x, -1, true, values, indices);
      expect([v, i]).toEqual([values, indices]);
      expect(v).toBe(values);
      expect(i).toBe(indices);
    } finally {
      setWarningHandler(prev);
    }
    expect([values.tolist(), indices.tolist(), values._version, indices._version]).toEqual([[[5], [6]], [[1], [2]], v0 + 1, i0 + 1]);
    expect(warnings.length).toBe(1); // indices had no elements: resized silently
    expect(() => aten().min_dim_min.call(x, 0, false, torch.empty(0), torch.empty(0, { dtype: 'int32' }))).toThrow(
      'Expected out tensor to have dtype long int, but got int instead',
    );
    expect(() => aten().min_dim_min.call(x, 0, false, torch.empty(0, { dtype: 'float64' }), torch.empty(0, { dtype: 'int64' }))).toThrow(
      'Expected out tensor to have dtype float, but got double instead',
    );
    expect(() => torch.max(torch.zeros(2, 3, { dtype: 'complex64' }), 0)).toThrow('max(): does not support complex input');
    expect(() => torch.min(torch.empty(2, 0), 1)).toThrow('min(): Expected reduction dim 1 to have non-zero size.');
  });

  it('writes through the strides of a right-shaped out= tensor and fills a 0-dim input', () => {
    const x = torch.tensor(
      [
        [1, 5, 3],
        [4, 2, 6],
      ],
      { dtype: 'float32' },
    );
    const base = torch.zeros(3, 2);
    const out = base.t(); // [2, 3], not contiguous
    expect(torch.cumsum(x, 1, { out })).toBe(out);
    expect(base.tolist()).toEqual([
      [1, 4],
      [6, 6],
      [9, 12],
    ]);
    const [v, i] = atenCpu.max(torch.tensor(3.5), 0);
    expect([v.size(), v.item(), i.item()]).toEqual([[], 3.5, 0]);
    const vs = torch.zeros(2, 2);
    const [vo, io] = atenCpu.min_outf(x, 1, false, vs.select(1, 0), torch.empty(0, { dtype: 'int64' }));
    expect([vo.tolist(), io.tolist(), vs.tolist()]).toEqual([
      [1, 2],
      [0, 1],
      [
        [1, 0],
        [2, 0],
      ],
    ]);
  });

  it('Meta kernels settle the outputs without data; in-place checks use check_inplace', () => {
    const m = torch.empty(2, 3, 4, { device: 'meta', dtype: 'int32' });
    const [v, i] = torch.max(m, 1, true);
    expect([v.isMeta(), v.size(), v.scalarType, i.scalarType, i.size()]).toEqual([
      true,
      [2, 1, 4],
      ScalarType.Int,
      ScalarType.Long,
      [2, 1, 4],
    ]);
    const c = torch.cumsum(m, -1);
    expect([c.isMeta(), c.size(), c.scalarType]).toEqual([true, [2, 3, 4], ScalarType.Long]);
    expect(m.cumsum_(0)).toBe(m);
    expect(() => m.cumprod_(0, { dtype: 'float32' })).toThrow(
      'Bad in-place call: input tensor dtype int and output tensor dtype float should match',
    );
    const spec = { outputs: [{ sizes: [2, 2], dtype: ScalarType.Int, device: m.device }], precomputed: undefined };
    expect(() => checkInplaceOutput(m, spec, 0)).toThrow(
      'Bad in-place call: input tensor size [2, 3, 4] and output tensor size [2, 2] should match',
    );
  });
});
