// Factories and their device argument on the CPU side: torch.tensor builds on the CPU and moves only for other
// devices (Note [torch.tensor on a device], PyTorch's internal_new_from_data in torch/csrc/utils/tensor_new.cpp),
// so a cpu call dispatches one allocation and no copy; the computed factories reach their device through
// BackendSelect kernels (src/kernels/FactoryBackendSelect.ts, torchgen's RegisterBackendSelect.cpp), so the
// cpu and meta devices give the same dtypes and sizes as before. The webgpu side: tools/browser/webgpu_factories.ts.
import { describe, expect, it } from 'vitest';
import type { Tensor } from '../../src/api/index.js';
import * as torch from '../../src/torch.js';
import { TorchDispatchMode, type DispatchKwargs } from '../../src/modes/_python_dispatch.js';
import type { OpOverload } from '../../src/library/ops.js';

class Calls extends TorchDispatchMode {
  readonly seen: string[] = [];
  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    this.seen.push(String(func));
    return func(...args, kwargs);
  }
}

type Make = (device: 'cpu' | 'meta') => Tensor;
const FACTORIES: [string, Make][] = [
  ['arange(1, 7, 2)', (device) => torch.arange(1, 7, 2, { device })],
  ['arange(0, 1, 0.25)', (device) => torch.arange(0, 1, 0.25, { device })],
  ['linspace(0, 1, 5)', (device) => torch.linspace(0, 1, 5, { device, dtype: torch.float16 })],
  ['linspace(tensor, tensor, 4)', (device) => torch.linspace(torch.tensor(0), torch.tensor(3), 4, { device })],
  ['logspace(0, 2, 3)', (device) => torch.logspace(0, 2, 3, { device })],
  ['logspace(tensor, 2, 3)', (device) => torch.logspace(torch.tensor(0), 2, 3, { device, dtype: torch.int64 })],
  ['eye(2, 3)', (device) => torch.eye(2, 3, { device, dtype: torch.bool })],
  ['tril_indices(3, 3)', (device) => torch.tril_indices(3, 3, { device })],
  ['triu_indices(3, 4, 1)', (device) => torch.triu_indices(3, 4, 1, { device, dtype: torch.int32 })],
  ['fft.fftfreq(5)', (device) => torch.fft.fftfreq(5, { device })],
  ['fft.rfftfreq(6, 0.5)', (device) => torch.fft.rfftfreq(6, 0.5, { device })],
];

describe('torch.tensor with a device', () => {
  it('on the cpu dispatches one allocation and no copy (no extra copy for device cpu)', () => {
    for (const device of [undefined, 'cpu', 'meta'] as const) {
      const mode = new Calls();
      const t = mode.run(() =>
        torch.tensor(
          [
            [1, 2],
            [3, 4],
          ],
          device === undefined ? {} : { device },
        ),
      );
      expect(mode.seen, String(device)).toEqual(['aten.empty.memory_format']);
      expect(t.device.toString()).toBe(device === 'meta' ? 'meta' : 'cpu');
      expect([t.size(), String(t.dtype)]).toEqual([[2, 2], 'torch.int64']);
    }
  });

  it('keeps the values, inferred dtype and requires_grad on the cpu', () => {
    const t = torch.tensor(
      [
        [0.5, -1],
        [2, 1e30],
      ],
      { device: 'cpu', requires_grad: true },
    );
    expect(t.requires_grad && t.is_leaf).toBe(true);
    expect(t.tolist()).toEqual([
      [0.5, -1],
      [2, Math.fround(1e30)],
    ]);
    expect(torch.tensor([true, false], { device: 'cpu' }).dtype).toBe(torch.bool);
    expect(torch.tensor([2 ** 60, 3], { device: 'cpu' }).tolist()).toEqual([2 ** 60, 3]);
  });
});

describe('computed factories through BackendSelect', () => {
  it.each(FACTORIES)('%s: meta has the cpu result dtype and sizes', (_name, make) => {
    const [cpu, meta] = [make('cpu'), make('meta')];
    expect(cpu.device.toString()).toBe('cpu');
    expect(meta.device.toString()).toBe('meta');
    expect([String(meta.dtype), meta.size()]).toEqual([String(cpu.dtype), cpu.size()]);
  });

  it('a dispatch mode sees each factory once, as PyTorch (BackendSelect is below the Python key)', () => {
    const mode = new Calls();
    mode.run(() => [torch.arange(3), torch.eye(2), torch.tril_indices(2, 2), torch.linspace(0, 1, 3)]);
    expect(mode.seen).toEqual(['aten.arange.start_step', 'aten.eye.m', 'aten.tril_indices.default', 'aten.linspace.default']);
  });

  it("raises the kernels' errors through BackendSelect", () => {
    expect(() => torch.arange(0, 1, 0, { device: 'cpu' })).toThrow('step must be nonzero');
    expect(() => torch.eye(-2, { device: 'meta' })).toThrow('n must be greater or equal to 0, got -2');
    expect(() => torch.tril_indices(-1, 2)).toThrow('row must be non-negative, got-1');
  });
});
