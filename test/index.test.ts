// The package entry point exports a working API.
import { describe, expect, it } from 'vitest';
import { DispatchKey, Dispatcher, Library, Tensor, torch } from '../src/index.js';

describe('package entry point', () => {
  it('exports torch, Tensor and the dispatcher', () => {
    const x = torch.ones(2, 2);
    expect(x).toBeInstanceOf(Tensor);
    expect(String(x.t())).toBe('tensor([[1., 1.],\n        [1., 1.]])');
    const d = Dispatcher.withBuiltinFallbacks();
    const lib = new Library('FRAGMENT', 'pkg', undefined, { dispatcher: d });
    lib.def('f(Tensor x) -> Tensor');
    lib.impl('f', (_ks, t: Tensor) => t, DispatchKey.CPU);
    expect(d.findSchemaOrThrow('pkg::f').call(x)).toBe(x);
  });
});
