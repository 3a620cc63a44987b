// FakeTensorMode: a model's forward and backward for shapes only — tensors report cpu, hold no memory, and
// the CPU allocator's bytes do not grow; views and in-place results keep identity; PyTorch's error for real
// tensors.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { FakeTensor, FakeTensorMode, isFake } from '../../src/modes/fake_tensor.js';
import { cpuMemoryStats, getKernelBackend } from '../../src/wasm/index.js';
import { LeNet } from './lenet.js';

const F = nn.functional;

describe('FakeTensorMode', () => {
  it("runs a CNN's forward and backward with real shapes and no memory", () => {
    const bytes = (): number => cpuMemoryStats()?.allocatedBytes ?? 0;
    // Control: the same model for real allocates.
    const realBefore = bytes();
    const real = new LeNet();
    const realOut = real.call(torch.randn([64, 1, 28, 28]));
    const realGrown = bytes() - realBefore;
    const mode = new FakeTensorMode();
    const before = bytes();
    const { model, out, loss } = mode.run(() => {
      const model = new LeNet();
      const out = model.call(torch.empty([64, 1, 28, 28]));
      const loss = F.cross_entropy(out, torch.zeros([64], { dtype: torch.int64 }));
      loss.backward();
      return { model, out, loss };
    });
    expect(bytes()).toBe(before);
    // The control: on the WASM kernels storage lives in linear memory, whose allocator counts it (the JS
    // kernels keep storage on the JS heap, uncounted; there the no-buffer checks below carry the proof).
    if (getKernelBackend() === 'wasm') expect(realGrown).toBeGreaterThan(0);
    expect(out.shape).toEqual(realOut.shape);
    expect(out).toBeInstanceOf(FakeTensor);
    expect(out.device.toString()).toBe('cpu');
    expect(String(out)).toBe('FakeTensor(..., size=(64, 10), grad_fn=<AddmmBackward0>)');
    expect(String(loss)).toBe('FakeTensor(..., size=(), grad_fn=<NllLossBackward0>)');
    for (const [name, p] of model.named_parameters()) {
      expect(isFake(p), name).toBe(true);
      expect(p.storage.buffer, name).toBeNull();
      expect(p.grad?.shape, name).toEqual(p.shape);
      expect(isFake(p.grad), name).toBe(true);
      expect(p.grad?.device.toString()).toBe('cpu');
    }
    expect(() => out.tolist()).toThrow("Cannot access data pointer of Tensor that doesn't have storage");
  });

  it('views share the fake storage, in-place ops return their argument, ops outside the mode stay fake', () => {
    const mode = new FakeTensorMode();
    const x = mode.from_tensor(torch.ones([4, 6]));
    expect(mode.from_tensor(torch.ones([1]))).not.toBe(x);
    const v = x.view([2, 12]);
    expect(v.sharesStorageWith(x)).toBe(true);
    const y = mode.run(() => x.add_(1));
    expect(y).toBe(x);
    expect(x._version).toBe(1);
    // Outside the mode, a call on fake tensors runs in the mode that made them (FakeTensor.__torch_dispatch__).
    const z = x.t().matmul(x);
    expect(isFake(z)).toBe(true);
    expect(z.shape).toEqual([6, 6]);
    const r = mode.run(() => torch.ones([2, 3]).unsqueeze_(0));
    expect(r.shape).toEqual([1, 2, 3]);
    expect(String(mode.run(() => torch.zeros([2], { dtype: torch.int64 })))).toBe('FakeTensor(..., size=(2,), dtype=torch.int64)');
  });

  it("refuses real tensors unless allow_non_fake_inputs (PyTorch's error), accepts scalars", () => {
    const real = torch.ones([2, 2]);
    const mode = new FakeTensorMode();
    const fake = mode.from_tensor(torch.ones([2, 2]));
    expect(() => mode.run(() => fake.add(real))).toThrow(
      "Please convert all Tensors to FakeTensors first or instantiate FakeTensorMode with 'allow_non_fake_inputs'. Found in aten.add.Tensor(",
    );
    expect(mode.run(() => fake.mul(2)).shape).toEqual([2, 2]);
    const lenient = new FakeTensorMode({ allow_non_fake_inputs: true });
    expect(isFake(lenient.run(() => real.add(real)))).toBe(true);
    expect(() => new FakeTensorMode({ allow_non_fake_input: true } as never)).toThrow(
      "FakeTensorMode() got an unexpected keyword argument 'allow_non_fake_input'",
    );
  });
});
