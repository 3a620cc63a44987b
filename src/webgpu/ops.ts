// The webgpu device's kernels, registered at PrivateUse1 through torch.library (the public extension API, as an
// out-of-tree PyTorch backend registers with TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)). Autograd needs nothing
// here: AutogradPrivateUse1 runs aten-ts's autograd kernels, whose backward formulas call these operators.
// The counterpart of PyTorch's native_functions.yaml `MPS:` entries (aten/src/ATen/native/mps/operations/).
import { DeviceType, ScalarType, empty_generic, empty_strided_generic, torch, type Device, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from './runtime.js';
import { matmul } from './kernels/LinearAlgebra.js';
import { blockOf, checkFloatOrHalf, pointwise, viaFloat32 } from './kernels/Loops.js';
import { pointwiseKernels } from './kernels/BinaryOps.js';
import { integerKernels } from './kernels/IntegerOps.js';
import { kindOf } from './kernels/TypeProperties.js';
import { reduceSum, reducedDims, reductionKernels } from './kernels/ReduceOps.js';
import {
  conv2dBackwardInput,
  conv2dBackwardWeight,
  conv3dBackwardInput,
  conv3dBackwardWeight,
  convolution,
} from './kernels/Convolution.js';
import { nllLoss, nllLossBackward } from './kernels/LossNLL.js';
import {
  maxPool2dWithIndices,
  maxPool2dWithIndicesBackward,
  maxPool3dWithIndices,
  maxPool3dWithIndicesBackward,
} from './kernels/Pooling.js';
import { avgPool2d, avgPool2dBackward, avgPool3d, avgPool3dBackward } from './kernels/AveragePool2d.js';
import {
  adaptiveAvgPool2d,
  adaptiveAvgPool2dBackward,
  adaptiveAvgPool3d,
  adaptiveAvgPool3dBackward,
} from './kernels/AdaptiveAveragePooling.js';
import { softmax, softmaxBackward } from './kernels/SoftMax.js';
import { bmm } from './kernels/LinearAlgebra.js';
import { embedding, gather, indexSelect, scatter, scatterAdd } from './kernels/Indexing.js';
import { index, indexPut, put, take } from './kernels/AdvancedIndexing.js';
import { nativeLayerNorm, nativeLayerNormBackward } from './kernels/Normalization.js';
import { sdpaBackward, sdpaForward } from './kernels/Attention.js';
import { trilTriu } from './kernels/TriangularOps.js';
import { factoryKernels } from './kernels/Factories.js';
import { bernoulliScalar_, normal_, random_, randpermOut, uniform_, type WebGPUGenerator } from './kernels/Distributions.js';
import { fusedAdam, fusedSgd, optimizerPointwiseKernels } from './kernels/FusedOptimizers.js';

/** Refuses dtypes the device cannot hold, as MPS refuses float64. */
export function checkDtype(dtype: ScalarType): void {
  if (dtype === ScalarType.Double || dtype === ScalarType.ComplexDouble) {
    throw new TypeError(
      `Cannot create a webgpu tensor of dtype ${dtype === ScalarType.Double ? 'float64' : 'complex128'}: ` +
        "WebGPU has no 64-bit floats (as the MPS framework doesn't support float64). Please use float32 instead.",
    );
  }
}

function checkDeviceIndex(device: Device | null): void {
  if (device != null && device.index > 0) throw new Error(`${device.toString()} does not exist: the webgpu device has one GPU (index 0)`);
}

/** Kernels as [operator overload, kernel] pairs for `lib.impl`. */
export function webgpuKernels(rt: WebGPURuntime, gen: WebGPUGenerator): [string, (...args: never[]) => unknown][] {
  const kernels: [string, (...args: never[]) => unknown][] = [...pointwiseKernels(rt), ...integerKernels(rt), ...reductionKernels(rt)];
  kernels.push(
    ['sum', ((self: Tensor, dtype: ScalarType | null) => reduceSumChecked(rt, 'aten::sum', self, null, false, dtype, false)) as never],
    [
      'sum.dim_IntList',
      ((self: Tensor, dim: number[] | null, keepdim: boolean, dtype: ScalarType | null) =>
        reduceSumChecked(rt, 'aten::sum.dim_IntList', self, dim, keepdim, dtype, false)) as never,
    ],
    ['mean', ((self: Tensor, dtype: ScalarType | null) => reduceSumChecked(rt, 'aten::mean', self, null, false, dtype, true)) as never],
    [
      'mean.dim',
      ((self: Tensor, dim: number[] | null, keepdim: boolean, dtype: ScalarType | null) =>
        reduceSumChecked(rt, 'aten::mean.dim', self, dim, keepdim, dtype, true)) as never,
    ],
    ['mm', ((a: Tensor, b: Tensor) => matmul(rt, 'aten::mm', a, b, null, 0, 1)) as never],
    [
      'addmm',
      ((self: Tensor, a: Tensor, b: Tensor, beta: number, alpha: number) =>
        matmul(rt, 'aten::addmm', a, b, self, Number(beta), Number(alpha))) as never,
    ],
    [
      'empty.memory_format',
      ((size: number[], dtype: ScalarType | null, _layout: unknown, device: Device | null) => {
        checkDeviceIndex(device);
        const st = dtype ?? torch.get_default_dtype().scalarType;
        checkDtype(st);
        return empty_generic(size, rt, st);
      }) as never,
    ],
    [
      'empty_strided',
      ((size: number[], stride: number[], dtype: ScalarType | null, _layout: unknown, device: Device | null) => {
        checkDeviceIndex(device);
        const st = dtype ?? torch.get_default_dtype().scalarType;
        checkDtype(st);
        return empty_strided_generic(size, stride, rt, st);
      }) as never,
    ],
    ['copy_', ((self: Tensor, src: Tensor) => copy(rt, self, src)) as never],
    [
      '_local_scalar_dense',
      ((self: Tensor) => {
        throw new Error(rt.hostAccessError(self.storage));
      }) as never,
    ],
  );
  /** A generator argument must be the device's (PyTorch: "Expected a 'cuda' device type for generator"). */
  const generatorOf = (g: unknown): WebGPUGenerator => {
    if (g != null)
      throw new Error(`Expected a 'webgpu' device type for generator but found '${String((g as { device?: unknown }).device ?? 'cpu')}'`);
    return gen;
  };
  kernels.push(
    ['bernoulli_.float', ((self: Tensor, p: number, g: unknown) => bernoulliScalar_(rt, generatorOf(g), self, Number(p))) as never],
    ['uniform_', ((self: Tensor, a: number, b: number, g: unknown) => uniform_(rt, generatorOf(g), self, Number(a), Number(b))) as never],
    ['normal_', ((self: Tensor, m: number, s: number, g: unknown) => normal_(rt, generatorOf(g), self, Number(m), Number(s))) as never],
    [
      'random_.from',
      ((self: Tensor, a: number, b: number | null, g: unknown) =>
        random_(rt, generatorOf(g), self, Number(a), b == null ? null : Number(b))) as never,
    ],
    ['random_.to', ((self: Tensor, b: number, g: unknown) => random_(rt, generatorOf(g), self, 0, Number(b))) as never],
    ['random_', ((self: Tensor, g: unknown) => random_(rt, generatorOf(g), self, 0, null)) as never],
    ['randperm.generator_out', ((n: number, g: unknown, out: Tensor) => randpermOut(generatorOf(g), Number(n), out)) as never],
  );
  kernels.push(
    ['tril', ((self: Tensor, diagonal: number) => trilTriu(false, self, Number(diagonal))) as never],
    ['triu', ((self: Tensor, diagonal: number) => trilTriu(true, self, Number(diagonal))) as never],
  );
  kernels.push(...factoryKernels((dtype, device) => (checkDeviceIndex(device), checkDtype(dtype))));
  kernels.push(...networkKernels(rt), ...transformerKernels(rt));
  kernels.push(...optimizerKernels(rt));
  return kernels;
}

/** The optimisers' steps: the fused operators and the pointwise ones of the foreach path (kernels/FusedOptimizers.ts). */
function optimizerKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  type Adam = [
    Tensor[],
    Tensor[],
    Tensor[],
    Tensor[],
    Tensor[],
    Tensor[],
    number,
    number,
    number,
    number,
    number,
    boolean,
    boolean,
    Tensor | null,
    Tensor | null,
  ];
  type Sgd = [Tensor[], Tensor[], Tensor[], number, number, number, number, boolean, boolean, boolean, Tensor | null, Tensor | null];
  return [
    ['_fused_adam_', ((...a: Adam) => fusedAdam(rt, false, ...a)) as never],
    ['_fused_adamw_', ((...a: Adam) => fusedAdam(rt, true, ...a)) as never],
    ['_fused_sgd_', ((...a: Sgd) => fusedSgd(rt, ...a)) as never],
    ...optimizerPointwiseKernels(rt),
  ];
}

/**
 * The kernels a convolutional network's forward and backward dispatch (LeNet: conv, pool, cross-entropy). float16
 * goes through the float32 kernels (Note [float16 through the float32 kernels]): always for max pooling and
 * nll_loss, and for the kernels with f16 shaders (convolution, average pooling) when the device lacks 'shader-f16'.
 */
function networkKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  const noF16 = (): boolean => !rt.features.shaderF16;
  return networkKernels32(rt).map(([name, k]) => [
    name,
    /^(convolution|_conv[23]d|avg_pool[23]d|_adaptive_avg_pool[23]d)/.test(name)
      ? viaFloat32(rt, k, noF16)
      : /^(max_pool[23]d|nll_loss)/.test(name)
        ? viaFloat32(rt, k)
        : k, // softmax / log_softmax take float16 themselves (their dtype argument)
  ]);
}

function networkKernels32(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  type Conv = [Tensor, Tensor, Tensor, number[], number[], number[], number];
  return [
    [
      'convolution',
      ((x: Tensor, w: Tensor, b: Tensor | null, s: number[], p: number[], d: number[], tr: boolean, op: number[], g: number) =>
        convolution(rt, x, w, b, s, p, d, tr, op, g)) as never,
    ],
    ['_conv2d_backward_input', ((...a: Conv) => conv2dBackwardInput(rt, ...a)) as never],
    ['_conv2d_backward_weight', ((...a: Conv) => conv2dBackwardWeight(rt, ...a)) as never],
    ['_conv3d_backward_input', ((...a: Conv) => conv3dBackwardInput(rt, ...a)) as never],
    ['_conv3d_backward_weight', ((...a: Conv) => conv3dBackwardWeight(rt, ...a)) as never],
    [
      'max_pool2d_with_indices',
      ((x: Tensor, k: number[], s: number[], p: number[], d: number[], c: boolean) => maxPool2dWithIndices(rt, x, k, s, p, d, c)) as never,
    ],
    [
      'max_pool2d_with_indices_backward',
      ((g: Tensor, x: Tensor, k: number[], s: number[], p: number[], d: number[], c: boolean, i: Tensor) =>
        maxPool2dWithIndicesBackward(rt, g, x, k, s, p, d, c, i)) as never,
    ],
    [
      'avg_pool2d',
      ((x: Tensor, k: number[], s: number[], p: number[], c: boolean, cip: boolean, div: number | null) =>
        avgPool2d(rt, x, k, s, p, c, cip, div)) as never,
    ],
    [
      'avg_pool2d_backward',
      ((g: Tensor, x: Tensor, k: number[], s: number[], p: number[], c: boolean, cip: boolean, div: number | null) =>
        avgPool2dBackward(rt, g, x, k, s, p, c, cip, div)) as never,
    ],
    ['_adaptive_avg_pool2d', ((x: Tensor, size: number[]) => adaptiveAvgPool2d(rt, x, size)) as never],
    ['_adaptive_avg_pool2d_backward', ((g: Tensor, x: Tensor) => adaptiveAvgPool2dBackward(rt, g, x)) as never],
    ...pool3dKernels(rt),
    ['softmax.int', ((x: Tensor, dim: number, dt: ScalarType | null) => softmax(rt, false, x, dim, dt)) as never],
    ['log_softmax.int', ((x: Tensor, dim: number, dt: ScalarType | null) => softmax(rt, true, x, dim, dt)) as never],
    ['_softmax_backward_data', ((g: Tensor, y: Tensor, dim: number) => softmaxBackward(rt, false, g, y, dim)) as never],
    ['_log_softmax_backward_data', ((g: Tensor, y: Tensor, dim: number) => softmaxBackward(rt, true, g, y, dim)) as never],
    ['nll_loss', ((x: Tensor, t: Tensor, w: Tensor | null, r: number, ig: number) => nllLoss(rt, x, t, w, Number(r), Number(ig))) as never],
    [
      'nll_loss_backward',
      ((g: Tensor, x: Tensor, t: Tensor, w: Tensor | null, r: number, ig: number) =>
        nllLossBackward(rt, g, x, t, w, Number(r), Number(ig))) as never,
    ],
  ];
}

/** The 3-d pooling kernels (the 2-d ones' shaders with a depth: Note [One pooling skeleton for 2-d and 3-d]). */
function pool3dKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  type Max = [number[], number[], number[], number[], boolean];
  type Avg = [number[], number[], number[], boolean, boolean, number | null];
  return [
    ['max_pool3d_with_indices', ((x: Tensor, ...a: Max) => maxPool3dWithIndices(rt, x, ...a)) as never],
    [
      'max_pool3d_with_indices_backward',
      ((g: Tensor, x: Tensor, ...a: [...Max, Tensor]) => maxPool3dWithIndicesBackward(rt, g, x, ...a)) as never,
    ],
    ['avg_pool3d', ((x: Tensor, ...a: Avg) => avgPool3d(rt, x, ...a)) as never],
    ['avg_pool3d_backward', ((g: Tensor, x: Tensor, ...a: Avg) => avgPool3dBackward(rt, g, x, ...a)) as never],
    ['_adaptive_avg_pool3d', ((x: Tensor, size: number[]) => adaptiveAvgPool3d(rt, x, size)) as never],
    ['_adaptive_avg_pool3d_backward', ((g: Tensor, x: Tensor) => adaptiveAvgPool3dBackward(rt, g, x)) as never],
  ];
}

/** The kernels a transformer's training step dispatches besides those above (Note [SDPA backend choice]). */
function transformerKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  const GELU = 'x0 * 0.5 * (1.0 + erf_f32(x0 * 0.7071067811865476))';
  // 0.5 x (1 + tanh(u)) as x / (1 + exp(-2u)): no cancellation for negative x (float16's small results), and no
  // tanh of a large argument (SwiftShader's is NaN); exp's overflow gives -0 as the CPU's 0.5 x (1 - 1).
  const GELU_TANH = 'x0 / (1.0 + exp(-1.5957691216057308 * (x0 + 0.044715 * x0 * x0 * x0)))';
  const gelu = (op: string, self: Tensor, approximate: string, out: Tensor): Tensor => {
    checkFloatOrHalf(op, self);
    if (approximate !== 'none' && approximate !== 'tanh') throw new Error(`approximate argument must be either none or tanh.`);
    return pointwise(rt, `${op}:${approximate}`, approximate === 'tanh' ? GELU_TANH : GELU, out, [self]);
  };
  type Sdpa = [Tensor, Tensor, Tensor, number, boolean, Tensor | null, number | null];
  type SdpaBwd = [Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, number, boolean, Tensor | null, number | null];
  return [
    [
      'erf',
      ((x: Tensor) => (
        checkFloatOrHalf('aten::erf', x),
        pointwise(rt, 'aten::erf', 'erf_f32(x0)', empty_generic(x.sizes, rt, x.scalarType), [x])
      )) as never,
    ],
    ['erf_', ((x: Tensor) => (checkFloatOrHalf('aten::erf_', x), pointwise(rt, 'aten::erf_', 'erf_f32(x0)', x, [x]))) as never],
    ['gelu', ((x: Tensor, a: string) => gelu('aten::gelu', x, a, empty_generic(x.sizes, rt, x.scalarType))) as never],
    ['gelu_', ((x: Tensor, a: string) => gelu('aten::gelu_', x, a, x)) as never],
    ['bmm', ((a: Tensor, b: Tensor) => bmm(rt, 'aten::bmm', a, b, null, 0, 1)) as never],
    [
      'baddbmm',
      ((self: Tensor, a: Tensor, b: Tensor, beta: number, alpha: number) =>
        bmm(rt, 'aten::baddbmm', a, b, self, Number(beta), Number(alpha))) as never,
    ],
    [
      'native_layer_norm',
      ((x: Tensor, shape: number[], w: Tensor | null, b: Tensor | null, eps: number) =>
        nativeLayerNorm(rt, x, shape, w, b, Number(eps))) as never,
    ],
    [
      'native_layer_norm_backward',
      ((g: Tensor, x: Tensor, shape: number[], mean: Tensor, rstd: Tensor, w: Tensor | null, b: Tensor | null, mask: boolean[]) =>
        nativeLayerNormBackward(rt, g, x, shape, mean, rstd, w, b, mask)) as never,
    ],
    ['embedding', ((w: Tensor, i: Tensor) => embedding(rt, w, i)) as never],
    ['index_select', ((x: Tensor, dim: number, i: Tensor) => indexSelect(rt, x, dim, i)) as never],
    ...indexingKernels(rt),
    // float16 through the float32 math path, each result rounded once (Note [float16 through the float32 kernels]).
    ['_scaled_dot_product_flash_attention_for_cpu', viaFloat32(rt, (...a: Sdpa) => sdpaForward(rt, ...a)) as never],
    ['_scaled_dot_product_flash_attention_for_cpu_backward', viaFloat32(rt, (...a: SdpaBwd) => sdpaBackward(rt, ...a)) as never],
  ];
}

/** gather, scatter(_) / scatter_add, index.Tensor, index_put(_), take, put(_): See Note [Offset tables of the indexing kernels]. */
function indexingKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  type Put = [Tensor, (Tensor | null)[], Tensor, boolean];
  return [
    ['gather', ((x: Tensor, dim: number, i: Tensor, sparse: boolean) => gather(rt, x, dim, i, sparse)) as never],
    ['scatter_add', ((x: Tensor, dim: number, i: Tensor, s: Tensor) => scatterAdd(rt, x, dim, i, s)) as never],
    ['scatter.src', ((x: Tensor, dim: number, i: Tensor, s: Tensor) => scatter(rt, x, dim, i, s, false)) as never],
    ['scatter.value', ((x: Tensor, dim: number, i: Tensor, v: number) => scatter(rt, x, dim, i, Number(v), false)) as never],
    ['scatter_.src', ((x: Tensor, dim: number, i: Tensor, s: Tensor) => scatter(rt, x, dim, i, s, true)) as never],
    ['scatter_.value', ((x: Tensor, dim: number, i: Tensor, v: number) => scatter(rt, x, dim, i, Number(v), true)) as never],
    ['index.Tensor', ((x: Tensor, i: (Tensor | null)[]) => index(rt, x, i)) as never],
    ['index_put', ((...a: Put) => indexPut(rt, ...a, false)) as never],
    ['index_put_', ((...a: Put) => indexPut(rt, ...a, true)) as never],
    ['take', ((x: Tensor, i: Tensor) => take(rt, x, i)) as never],
    ['put', ((x: Tensor, i: Tensor, s: Tensor, acc: boolean) => put(rt, x, i, s, acc, false)) as never],
    ['put_', ((x: Tensor, i: Tensor, s: Tensor, acc: boolean) => put(rt, x, i, s, acc, true)) as never],
  ];
}

function reduceSumChecked(
  rt: WebGPURuntime,
  op: string,
  self: Tensor,
  dim: number[] | null,
  keepdim: boolean,
  dtype: ScalarType | null,
  mean: boolean,
): Tensor {
  return reduceSum(rt, op, self, reducedDims(self, dim), keepdim, mean, dtype ?? null);
}

/** `copy_(self, src)` with a webgpu tensor on either side (See Note [Reading webgpu tensors] for the CPU side). */
function copy(rt: WebGPURuntime, self: Tensor, src: Tensor): Tensor {
  if (self.device.type !== DeviceType.PrivateUse1) throw new Error(rt.hostAccessError(src.storage));
  if (self.numel() === 0) return self;
  if (src.device.type !== DeviceType.PrivateUse1) {
    // Upload: the source as a contiguous CPU tensor of self's dtype and shape, written to a fresh buffer (never
    // into one that encoded work may still read: Note [One open command encoder]), then copied on the GPU.
    const host = src.to({ dtype: self.dtype }).expand(self.sizes).contiguous();
    const { data, base } = host.dataView();
    const bytes = new Uint8Array(data.buffer, data.byteOffset + base * data.BYTES_PER_ELEMENT, host.numel() * host.element_size());
    // A fresh buffer: no encoded work reads it, so queue.writeBuffer may fill it now.
    const tmp = empty_generic(self.sizes, rt, self.scalarType);
    rt.write(blockOf(tmp).buffer, bytes);
    return copyOnDevice(rt, self, tmp);
  }
  return copyOnDevice(rt, self, src);
}

function copyOnDevice(rt: WebGPURuntime, self: Tensor, src: Tensor): Tensor {
  const bothContiguous = self.isContiguous() && src.isContiguous() && src.numel() === self.numel();
  const item = self.element_size();
  const [dst0, src0, bytes] = [self.storageOffset * item, src.storageOffset * item, self.numel() * item];
  const rounded = Math.ceil(bytes / 4) * 4;
  // A byte count that is not a multiple of 4 (bool) is rounded up when the bytes past the end are the
  // destination storage's padding (it ends there) and the source block has them.
  const padOk = rounded === bytes || (dst0 + bytes === self.storage.nbytes && src0 + rounded <= blockOf(src).bytes);
  if (self.scalarType === src.scalarType && bothContiguous && dst0 % 4 === 0 && src0 % 4 === 0 && padOk) {
    rt.copyBuffer(blockOf(src).buffer, src0, blockOf(self).buffer, dst0, rounded);
    return self;
  }
  // A cast, a strided copy: a pointwise kernel computing in the destination's dtype (a bool destination tests
  // the source against 0 in the source's); See Note [Casts of int64 in WGSL].
  const [to, from] = [kindOf('aten::copy_', self.scalarType), kindOf('aten::copy_', src.scalarType)];
  const compute = to !== 'bool' ? to : from === 'bool' ? 'i32' : from;
  return pointwise(rt, 'aten::copy_', 'x0', self, [src.expand(self.sizes)], [], { compute });
}
