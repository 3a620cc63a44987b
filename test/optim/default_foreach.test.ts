// torch/optim/optimizer.py `_default_to_fused_or_foreach` and `_device_dtype_check_for_fused` with
// torch/utils/_foreach_utils.py's device lists: foreach by default only when every parameter is on a CUDA-like
// device or the PrivateUse1 backend (Note [foreach by default on the webgpu device]); the CPU keeps the
// single-tensor path.
import { afterEach, describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import { DeviceType, deviceTypeName } from '../../src/c10/Device.js';
import { setDispatchTraceEnabled, setDispatchTraceSink } from '../../src/dispatch/debug.js';
import * as optim from '../../src/optim/index.js';
import {
  defaultToFusedOrForeach,
  deviceDtypeCheckForFused,
  foreachKernelsSupportedDevices,
  fusedKernelsSupportedDevices,
} from '../../src/optim/optimizer.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

/** A parameter-like value on `type` (the rule reads only the device type and whether it is floating). */
const on = (type: DeviceType, floating = true): Tensor => ({ device: { type }, isFloatingPoint: () => floating }) as unknown as Tensor;

describe('_default_to_fused_or_foreach', () => {
  const backend = deviceTypeName(DeviceType.PrivateUse1);

  it("has PyTorch's device lists, the PrivateUse1 backend's name last", () => {
    expect(foreachKernelsSupportedDevices()).toEqual(['cuda', 'xpu', 'mtia', backend]);
    expect(fusedKernelsSupportedDevices()).toEqual(['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', backend]);
  });

  it('picks foreach for PrivateUse1 (and CUDA) parameters, never for the CPU or a mix', () => {
    expect(defaultToFusedOrForeach([on(DeviceType.PrivateUse1), on(DeviceType.PrivateUse1)], false)).toEqual([false, true]);
    expect(defaultToFusedOrForeach([on(DeviceType.CUDA)], false)).toEqual([false, true]);
    expect(defaultToFusedOrForeach([on(DeviceType.CPU)], false)).toEqual([false, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.Meta)], false)).toEqual([false, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.PrivateUse1), on(DeviceType.CPU)], false)).toEqual([false, false]);
    // Python's all() of an empty list: True.
    expect(defaultToFusedOrForeach([], false)).toEqual([false, true]);
  });

  it('differentiable turns both off; use_fused takes floating parameters of the fused devices', () => {
    expect(defaultToFusedOrForeach([on(DeviceType.PrivateUse1)], true)).toEqual([false, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.CPU)], false, true)).toEqual([true, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.PrivateUse1)], false, true)).toEqual([true, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.CPU, false)], false, true)).toEqual([false, false]);
    expect(defaultToFusedOrForeach([on(DeviceType.Meta)], false, true)).toEqual([false, false]);
  });

  it("_device_dtype_check_for_fused accepts the PrivateUse1 backend and refuses with PyTorch's text", () => {
    expect(() => deviceDtypeCheckForFused(on(DeviceType.PrivateUse1))).not.toThrow();
    expect(() => deviceDtypeCheckForFused(torch.zeros(2, { dtype: 'int64' }))).toThrow(
      "`fused=True` requires all the params to be floating point Tensors of supported devices: ['mps', 'cuda', 'xpu', 'hpu', " +
        `'cpu', 'mtia', '${backend}'] but torch.int64 and cpu`,
    );
    expect(() => deviceDtypeCheckForFused(torch.zeros(2, { device: 'meta' }))).toThrow(/but torch\.float32 and meta$/);
  });
});

describe('the default path of Adam / AdamW / SGD on CPU parameters', () => {
  let previous: ((line: string) => void) | null = null;
  afterEach(() => {
    setDispatchTraceEnabled(false);
    if (previous !== null) setDispatchTraceSink(previous);
    previous = null;
  });
  /** The operators one step dispatches. */
  const traced = (make: (ps: Tensor[]) => optim.Optimizer<object>): string[] => {
    const p = torch.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    p.grad = torch.tensor([0.5, -1, 2], { dtype: 'float32' });
    const opt = make([p]);
    const lines: string[] = [];
    previous = setDispatchTraceSink((l) => lines.push(l));
    setDispatchTraceEnabled(true);
    opt.step();
    setDispatchTraceEnabled(false);
    return lines;
  };

  it('stays single-tensor (no _foreach_ operator) unless foreach=True', () => {
    const foreachCalls = (lines: string[]): number => lines.filter((l) => l.includes('_foreach_')).length;
    expect(foreachCalls(traced((ps) => new optim.Adam(ps, { lr: 0.1 })))).toBe(0);
    expect(foreachCalls(traced((ps) => new optim.SGD(ps, { lr: 0.1, momentum: 0.9 })))).toBe(0);
    expect(foreachCalls(traced((ps) => new optim.Adam(ps, { lr: 0.1, foreach: true })))).toBeGreaterThan(0);
    expect(foreachCalls(traced((ps) => new optim.SGD(ps, { lr: 0.1, momentum: 0.9, foreach: true })))).toBeGreaterThan(0);
  });

  it("fused=True keeps the float32 step counter on the parameter's device", () => {
    const p = torch.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    p.grad = torch.ones(3);
    const opt = new optim.Adam([p], { lr: 0.1, fused: true });
    opt.step();
    const step = opt.state.get(p)!['step'] as Tensor;
    expect([step.device.toString(), String(step.dtype), step.item()]).toEqual(['cpu', 'torch.float32', 1]);
  });
});
