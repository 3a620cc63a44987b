// PyTorch's snake_case names of the torch-level functions (manual_seed, no_grad, set_num_threads...): the same
// functions as their camelCase spellings, and they behave as PyTorch's do.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';

describe("torch's functions under PyTorch's names", () => {
  it('are the camelCase functions themselves', () => {
    expect(torch.manual_seed).toBe(torch.manualSeed);
    expect(torch.initial_seed).toBe(torch.initialSeed);
    expect(torch.get_default_dtype).toBe(torch.getDefaultDtype);
    expect(torch.set_default_dtype).toBe(torch.setDefaultDtype);
    expect(torch.get_num_threads).toBe(torch.getNumThreads);
    expect(torch.set_num_threads).toBe(torch.setNumThreads);
    expect(torch.no_grad).toBe(torch.noGrad);
    expect(torch.enable_grad).toBe(torch.enableGrad);
    expect(torch.set_grad_enabled).toBe(torch.setGradEnabled);
    expect(torch.is_grad_enabled).toBe(torch.isGradEnabled);
    expect(torch.inference_mode).toBe(torch.inferenceMode);
    expect(torch.is_inference_mode_enabled).toBe(torch.isInferenceModeEnabled);
  });

  it('manual_seed makes randn repeat; initial_seed reports it (a bigint)', () => {
    torch.manual_seed(7);
    const a = torch.randn(5).tolist();
    expect(torch.initial_seed()).toBe(7n); // a uint64, as a bigint
    torch.manual_seed(7);
    expect(torch.randn(5).tolist()).toEqual(a);
  });

  it('no_grad records no graph; is_grad_enabled says so inside', () => {
    const x = torch.ones(2, { requires_grad: true });
    const y = torch.no_grad(() => {
      expect(torch.is_grad_enabled()).toBe(false);
      return x.mul(2);
    });
    expect(y.requires_grad).toBe(false);
    expect(torch.is_grad_enabled()).toBe(true);
  });

  it('is_tensor and numel', () => {
    const x = torch.zeros(2, 3, 4);
    expect(torch.is_tensor(x)).toBe(true);
    expect(torch.is_tensor([1, 2])).toBe(false);
    expect(torch.numel(x)).toBe(24);
  });
});
