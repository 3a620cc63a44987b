// TensorIterator API: configs and their checks, result types of JavaScript numbers, coalescing, the fast
// build, hooks (output allocator, warnings), meta iterators, the loops' conversions and cpuKernelVec.
import { afterEach, describe, expect, it } from 'vitest';
import { ScalarType } from '../../src/c10/ScalarType.js';
import { castValue, cpuKernel, cpuKernelVec, forEachRow, toInt64, type VecOp } from '../../src/iter/index.js';
import {
  TensorIteratorConfig,
  binaryFloatOpConfig,
  binaryOpConfig,
  comparisonOpConfig,
  nullaryOpConfig,
  unaryOpConfig,
} from '../../src/iter/TensorIterator.js';
import { canCast, resultType } from '../../src/iter/resultType.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { inferSize } from '../../src/tensor/ExpandUtils.js';
import { Tensor } from '../../src/tensor/Tensor.js';
import { setDefaultDtype } from '../../src/tensor/defaults.js';
import { TensorImpl } from '../../src/tensor/TensorImpl.js';
import { newStrided as emptyStrided } from '../../src/tensor/EmptyTensor.js';
import { META, makeTensor, readValues, runOp, tensorOf, wrappedNumber } from './helpers.js';

const f32 = (sizes: number[], values?: number[]): TensorImpl =>
  tensorOf(ScalarType.Float, sizes, values ?? Array.from({ length: sizes.reduce((a, b) => a * b, 1) }, (_, i) => i));

afterEach(() => setDefaultDtype(ScalarType.Float));

describe('resultType', () => {
  it('treats JavaScript numbers as Python scalars', () => {
    const i32 = tensorOf(ScalarType.Int, [2], [1, 2]);
    expect(resultType([i32, 2.5])).toBe(ScalarType.Float);
    expect(resultType([i32, 2])).toBe(ScalarType.Int);
    expect(resultType([tensorOf(ScalarType.Char, [1], [1]), 1000])).toBe(ScalarType.Char);
    expect(resultType([tensorOf(ScalarType.Half, [1], [1]), 2.5])).toBe(ScalarType.Half);
    expect(resultType([tensorOf(ScalarType.Bool, [1], [1]), 3])).toBe(ScalarType.Long);
    expect(resultType([tensorOf(ScalarType.Bool, [1], [1]), true])).toBe(ScalarType.Bool);
    expect(resultType([tensorOf(ScalarType.Byte, [1], [1]), tensorOf(ScalarType.Bool, [1], [1])])).toBe(ScalarType.Byte);
    expect(resultType([tensorOf(ScalarType.Double, [], [1]), f32([3])])).toBe(ScalarType.Float);
    expect(resultType([tensorOf(ScalarType.Long, [], [1]), f32([3])])).toBe(ScalarType.Float);
    expect(resultType([2, 2.5])).toBe(ScalarType.Float);
    expect(resultType([2, true, 3])).toBe(ScalarType.Long);
    expect(() => resultType([])).toThrow(/at least one operand/);
  });

  it('follows the default dtype for Python floats', () => {
    setDefaultDtype(ScalarType.Double);
    expect(resultType([tensorOf(ScalarType.Int, [2], [1, 2]), 0.5])).toBe(ScalarType.Double);
    expect(
      binaryFloatOpConfig(null, tensorOf(ScalarType.Int, [1], [1]), tensorOf(ScalarType.Int, [1], [3]))
        .build()
        .output().scalarType,
    ).toBe(ScalarType.Double);
  });

  it('canCast', () => {
    expect(canCast(ScalarType.Float, ScalarType.Long)).toBe(false);
    expect(canCast(ScalarType.Long, ScalarType.Float)).toBe(true);
    expect(canCast(ScalarType.ComplexFloat, ScalarType.Double)).toBe(false);
    expect(canCast(ScalarType.Int, ScalarType.Bool)).toBe(false);
    expect(canCast(ScalarType.Bool, ScalarType.Bool)).toBe(true);
  });
});

describe('TensorIteratorConfig', () => {
  it('requires outputs before inputs', () => {
    expect(() => new TensorIteratorConfig().addInput(f32([1])).addOutput(null)).toThrow(
      'Keep in mind that you have to add all outputs first before adding any input.',
    );
  });

  it('checks flag order like PyTorch', () => {
    expect(() => new TensorIteratorConfig().declareStaticDtype(ScalarType.Bool)).toThrow(
      'check_all_same_dtype(false) must be called before declare_static_dtype(...)',
    );
    expect(() => new TensorIteratorConfig().declareStaticShape([2])).toThrow(
      'resize_outputs() must be called before declare_static_shape(...)',
    );
    expect(() => new TensorIteratorConfig().promoteIntegerInputsToFloat(true)).toThrow(/promoteInputsToCommonDtype/);
    expect(() => new TensorIteratorConfig().resizeOutputs(false).declareStaticShape([2, 3], [2])).toThrow(
      'squash_dim 2 must be in [0, 2).',
    );
  });

  it('broadcasts with PyTorch’s error', () => {
    expect(inferSize([2, 3], [3])).toEqual([2, 3]);
    expect(inferSize([1, 0], [4, 1])).toEqual([4, 0]);
    expect(() => inferSize([2, 3], [4])).toThrow(
      'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1',
    );
  });

  it('checkAllSameDtype reports the mismatching dtype', () => {
    expect(() => unaryOpConfig(tensorOf(ScalarType.Double, [2], [0, 0]), f32([2])).build()).toThrow(
      'Found dtype Double but expected Float',
    );
  });

  it('rejects mixed devices, except a 0-dim CPU scalar with allowCpuScalars', () => {
    const m = emptyStrided([3], [1], ScalarType.Float, META);
    expect(() => binaryOpConfig(null, m, f32([3])).build()).toThrow(
      'Expected all tensors to be on the same device, but found at least two devices, meta and cpu!',
    );
    const iter = binaryOpConfig(null, m, tensorOf(ScalarType.Float, [], [2])).build();
    expect(iter.isMeta).toBe(true);
    expect(iter.output().device.isMeta()).toBe(true);
    expect(() =>
      unaryOpConfig(null, m)
        .addInput(tensorOf(ScalarType.Float, [], [2]))
        .build(),
    ).toThrow(/same device/);
  });

  it('static shape and dtype (nullary-style kernels)', () => {
    const out = tensorOf(ScalarType.Long, [2, 3], [0, 0, 0, 0, 0, 0]);
    const iter = new TensorIteratorConfig().checkAllSameDtype(false).resizeOutputs(false).declareStaticShape([2, 3]).addOutput(out).build();
    cpuKernel(iter, () => 7.9);
    expect(readValues(out)).toEqual([7, 7, 7, 7, 7, 7]);
  });
});

describe('building', () => {
  it('takes the fast path for same-shape contiguous operands: flat, contiguous output', () => {
    const iter = binaryOpConfig(null, f32([2, 3, 4]), f32([2, 3, 4])).build();
    expect(iter.shape).toEqual([24]);
    expect(iter.isContiguous()).toBe(true);
    expect(iter.perm).toEqual([]); // no reordering was needed
    expect(iter.output().sizes).toEqual([2, 3, 4]);
    expect(iter.output().strides).toEqual([12, 4, 1]);
    expect(iter.fullShape).toEqual([2, 3, 4]);
    expect(iter.commonDtype).toBe(ScalarType.Float);
  });

  it('coalesces broadcast dims (fastest first, PyTorch’s get_strides layout)', () => {
    const iter = binaryOpConfig(null, f32([2, 3, 4]), f32([4])).build();
    expect(iter.shape).toEqual([4, 6]);
    expect(iter.stridesOf(0)).toEqual([1, 4]);
    expect(iter.stridesOf(1)).toEqual([1, 4]);
    expect(iter.stridesOf(2)).toEqual([1, 0]);
    expect(iter.isContiguous()).toBe(false);
    expect(iter.isScalar(2)).toBe(false);
  });

  it('allocates outputs in the inputs’ permutation', () => {
    const a = makeTensor(
      ScalarType.Float,
      [3, 4],
      [1, 3],
      0,
      Array.from({ length: 12 }, (_, i) => i),
    );
    const b = f32([3, 4]);
    const iter = binaryOpConfig(null, a, b).build();
    expect(iter.output().strides).toEqual([1, 3]);
    expect(readValues(iter.output()).length).toBe(12);
    cpuKernel(iter, (x, y) => (x as number) + (y as number));
    expect(readValues(iter.output())).toEqual(readValues(a).map((v, i) => v + i));
  });

  it('enforceLinearIteration keeps C order', () => {
    const a = makeTensor(
      ScalarType.Float,
      [3, 4],
      [1, 3],
      0,
      Array.from({ length: 12 }, (_, i) => i),
    );
    const iter = new TensorIteratorConfig().enforceLinearIteration().addOutput(null).addInput(a).build();
    expect(iter.output().strides).toEqual([4, 1]);
    expect(iter.stridesOf(1)).toEqual([3, 1]);
  });

  it('allocates functional outputs as Tensors with storage of their own (at::empty)', () => {
    const x = binaryOpConfig(null, f32([2]), f32([2]))
      .build()
      .output();
    const y = binaryOpConfig(null, f32([2, 1]), f32([3]))
      .build()
      .output();
    expect(x).toBeInstanceOf(Tensor);
    expect([x.sizes, y.sizes]).toEqual([[2], [2, 3]]);
    expect(y.strides).toEqual([3, 1]);
    expect(x.storage).not.toBe(y.storage);
  });

  it('resizes a wrong-shaped out= with PyTorch’s deprecation warning, but not an empty one', () => {
    const warnings: string[] = [];
    const prev = setWarningHandler((m) => warnings.push(m));
    try {
      const out = f32([5]);
      runOp('add', out, [f32([2, 4]), f32([4])]);
      expect(out.sizes).toEqual([2, 4]);
      expect(out.strides).toEqual([4, 1]);
      expect(readValues(out)).toEqual([0, 2, 4, 6, 4, 6, 8, 10]);
      runOp('add', f32([0]), [f32([2, 4]), f32([4])]);
    } finally {
      setWarningHandler(prev);
    }
    expect(warnings).toEqual([
      'An output with one or more elements was resized since it had shape [5], which does not match the required output shape [2, 4]. ' +
        'This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. ' +
        'You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).',
    ]);
  });

  it('rejects in-place broadcasting and unsafe casts with PyTorch’s messages', () => {
    const a = f32([3]);
    expect(() => binaryOpConfig(a, a, f32([2, 3])).build()).toThrow("output with shape [3] doesn't match the broadcast shape [2, 3]");
    const l = tensorOf(ScalarType.Long, [2, 4], new Array<number>(8).fill(0));
    expect(() => binaryOpConfig(l, f32([2, 4]), f32([4])).build()).toThrow(
      "result type Float can't be cast to the desired output type Long",
    );
  });

  it('meta iterators compute everything but run no loop', () => {
    const a = emptyStrided([2, 3], [1, 2], ScalarType.Int, META);
    const iter = binaryOpConfig(null, a, wrappedNumber(ScalarType.Double, 2.5)).build();
    expect(iter.isMeta).toBe(true);
    expect(iter.output().scalarType).toBe(ScalarType.Float);
    expect(iter.output().strides).toEqual([1, 2]);
    expect(iter.output().device.isMeta()).toBe(true);
    let called = false;
    cpuKernel(iter, () => {
      called = true;
      return 0;
    });
    expect(called).toBe(false);
  });

  it('comparison ops allocate bool and keep a given out dtype', () => {
    const a = tensorOf(ScalarType.Int, [3], [1, 2, 3]);
    const iter = comparisonOpConfig(null, a, wrappedNumber(ScalarType.Double, 2.5)).build();
    expect(iter.output().scalarType).toBe(ScalarType.Bool);
    expect(iter.commonDtype).toBe(ScalarType.Float);
    cpuKernel(iter, (x, y) => ((x as number) < (y as number) ? 1 : 0));
    expect(readValues(iter.output())).toEqual([1, 1, 0]);
    const out = tensorOf(ScalarType.Double, [3], [9, 9, 9]);
    const it2 = comparisonOpConfig(out, a, wrappedNumber(ScalarType.Double, 2.5)).build();
    cpuKernel(it2, (x, y) => ((x as number) < (y as number) ? 1 : 0));
    expect(readValues(out)).toEqual([1, 1, 0]);
  });

  it('original scalar values and operand removal (reduced-float kernels)', () => {
    const h = tensorOf(ScalarType.Half, [3], [1, 2, 3]);
    const iter = binaryOpConfig(null, h, wrappedNumber(ScalarType.Double, 0.1)).build();
    expect(iter.isCpuScalar(2)).toBe(true);
    expect(iter.originalScalarValue(2)).toBe(0.1);
    const b = iter.originalScalarValue(2);
    iter.removeOperand(2);
    expect(iter.ntensors).toBe(2);
    cpuKernel(iter, (x) => (x as number) + b);
    expect(readValues(iter.output())).toEqual([1.099609375, 2.099609375, 3.099609375]);
  });

  it('nullary ops fill strided outputs in place', () => {
    const out = makeTensor(ScalarType.Float, [2, 3], [1, 2], 1, new Array<number>(7).fill(0));
    const iter = nullaryOpConfig(out).build();
    cpuKernel(iter, () => 5);
    expect(readValues(out)).toEqual([5, 5, 5, 5, 5, 5]);
  });
});

describe('loops', () => {
  it('castValue converts like C++ casts', () => {
    expect(castValue(1000, ScalarType.Char)).toBe(-24);
    expect(castValue(-1.5, ScalarType.Byte)).toBe(255);
    expect(castValue(70000, ScalarType.Short)).toBe(4464);
    expect(castValue(2 ** 33 + 5, ScalarType.Int)).toBe(5);
    expect(castValue(0.1, ScalarType.Float)).toBe(Math.fround(0.1));
    expect(castValue(0.1, ScalarType.Half)).toBe(0.0999755859375);
    expect(castValue(65520, ScalarType.Half)).toBe(Infinity);
    expect(castValue(NaN, ScalarType.Bool)).toBe(1);
    expect(castValue(-2.7, ScalarType.Long)).toBe(-2);
    expect(toInt64(NaN)).toBe(-9223372036854775808);
    expect(Object.is(toInt64(-0.5), 0)).toBe(true);
  });

  it('stores into bool, int64, float16 and bfloat16 with conversion', () => {
    const src = tensorOf(ScalarType.Double, [4], [0.5, -2.7, NaN, 3]);
    const outs = [ScalarType.Bool, ScalarType.Long, ScalarType.Half, ScalarType.BFloat16].map((d) => {
      const o = tensorOf(d, [4], [0, 0, 0, 0]);
      cpuKernel(new TensorIteratorConfig().checkAllSameDtype(false).addOutput(o).addInput(src).build(), (x) => x as number);
      return readValues(o);
    });
    expect(outs[0]).toEqual([1, 1, 1, 1]);
    expect(outs[1]).toEqual([0, -2, -9223372036854775808, 3]);
    expect(outs[2]).toEqual([0.5, -2.69921875, NaN, 3]);
    expect(outs[3]).toEqual([0.5, -2.703125, NaN, 3]);
  });

  it('rejects complex compute dtypes and multi-output iterators', () => {
    const c = tensorOf(ScalarType.ComplexFloat, [2], [1, 2]);
    expect(() => cpuKernel(unaryOpConfig(null, c).build(), (x) => x as number)).toThrow(/ComplexFloat/);
    const two = new TensorIteratorConfig()
      .addOutput(null)
      .addOutput(null)
      .addInput(f32([2]))
      .build();
    expect(() => cpuKernel(two, (x) => x as number)).toThrow('cpuKernel: expected an iterator with exactly one output, got 2');
  });

  it('forEachRow visits every element once, rows along the fastest dim', () => {
    const a = makeTensor(ScalarType.Float, [3, 4, 5], [1, 15, 3], 0, new Array<number>(60).fill(0));
    const iter = unaryOpConfig(null, a).build();
    const seen = new Set<number>();
    forEachRow(iter, (offs, n) => {
      for (let i = 0; i < n; i++) seen.add((offs[1] as number) + i * (iter.strides[1] as number));
    });
    expect(seen.size).toBe(60);
  });

  describe('cpuKernelVec', () => {
    const calls: number[] = [];
    const vecAdd: VecOp = (o, oo, ins, io, n) => {
      calls.push(n);
      const a = ins[0] as NonNullable<(typeof ins)[0]>;
      const b = ins[1] as NonNullable<(typeof ins)[1]>;
      const ao = io[0] as number;
      const bo = io[1] as number;
      for (let i = 0; i < n; i++) o[oo + i] = (a[ao + i] as number) + (b[bo + i] as number);
    };
    const add = (x: number, y: number): number => x + y;

    it('runs one vec call over contiguous operands', () => {
      calls.length = 0;
      const iter = binaryOpConfig(null, f32([1000]), f32([1000])).build();
      cpuKernelVec(iter, add, vecAdd);
      expect(calls).toEqual([1000]);
      expect(readValues(iter.output())[999]).toBe(1998);
    });

    it('stages broadcast scalars through scratch in chunks; strided operands run the scalar op', () => {
      calls.length = 0;
      const iter = binaryOpConfig(null, f32([2000]), tensorOf(ScalarType.Float, [], [0.5])).build();
      cpuKernelVec(iter, add, vecAdd);
      expect(calls).toEqual([512, 512, 512, 464]);
      expect(readValues(iter.output()).slice(0, 3)).toEqual([0.5, 1.5, 2.5]);
      // A broadcast column: the staged value changes from row to row.
      calls.length = 0;
      const col = binaryOpConfig(null, f32([3, 4]), f32([3, 1], [10, 20, 30])).build();
      cpuKernelVec(col, add, vecAdd);
      expect(calls).toEqual([4, 4, 4]);
      expect(readValues(col.output())).toEqual([10, 11, 12, 13, 24, 25, 26, 27, 38, 39, 40, 41]);
      calls.length = 0;
      const t = makeTensor(
        ScalarType.Float,
        [3, 4],
        [1, 3],
        0,
        Array.from({ length: 12 }, (_, i) => i),
      );
      const it2 = binaryOpConfig(null, t, f32([3, 4])).build();
      cpuKernelVec(it2, add, vecAdd);
      expect(calls).toEqual([]);
      expect(readValues(it2.output())).toEqual(readValues(t).map((v, i) => v + i));
    });

    it('is used for int64 and not for promoted or bool operands', () => {
      calls.length = 0;
      const l = tensorOf(ScalarType.Long, [3], [1, 2, 3]);
      cpuKernelVec(binaryOpConfig(null, l, l).build(), add, vecAdd);
      expect(calls).toEqual([3]);
      calls.length = 0;
      const mixed = binaryOpConfig(null, l, f32([3])).build();
      cpuKernelVec(mixed, add, vecAdd);
      const bools = tensorOf(ScalarType.Bool, [3], [1, 0, 1]);
      cpuKernelVec(binaryOpConfig(null, bools, bools).build(), add, vecAdd);
      expect(calls).toEqual([]);
      expect(readValues(mixed.output())).toEqual([1, 3, 5]);
    });
  });
});
