// The dispatch facilities of the package entry: the schema parser, key-set helpers and guards; torch.set_printoptions
// / get_printoptions, get_rng_state / set_rng_state (round trip, PyTorch's errors), complex tensors from values.
// Printed forms and error texts are PyTorch 2.13's (checked against the wheel when written).
import { afterEach, describe, expect, it } from 'vitest';
import * as pkg from '../../src/index.js';
import {
  DispatchKey,
  ForceDispatchKeyGuard,
  getRuntimeDispatchKeySet,
  parseSchema,
  tlsLocalDispatchKeySet,
  torch,
} from '../../src/index.js';

afterEach(() => {
  torch.set_printoptions({ profile: 'default' });
  torch.setDefaultDtype(torch.float32);
});

describe('package entry', () => {
  it('exports the schema parser and model', () => {
    const s = parseSchema('f(Tensor self, *, ScalarType? dtype=float16) -> Tensor');
    expect(s).toBeInstanceOf(pkg.FunctionSchema);
    expect(s.arguments[1]).toBeInstanceOf(pkg.Argument);
    expect(String(s)).toBe('f(Tensor self, *, ScalarType? dtype=5) -> Tensor');
    expect(() => parseSchema('f(Dimname x) -> ()')).toThrow(pkg.SchemaParseError);
  });

  it('exports the key-set helpers and TLS guards', () => {
    expect(String(getRuntimeDispatchKeySet(DispatchKey.CompositeImplicitAutogradNestedTensor))).toContain('AutogradNestedTensor');
    expect(pkg.getDispatchTableIndexForDispatchKey(DispatchKey.AutogradCPU)).toBe(96);
    expect(pkg.NUM_RUNTIME_ENTRIES).toBe(137);
    expect(pkg.isIncludedInAlias(DispatchKey.CPU, DispatchKey.CompositeExplicitAutograd)).toBe(true);
    const before = tlsLocalDispatchKeySet();
    {
      using _g = new ForceDispatchKeyGuard(pkg.DispatchKeySet.EMPTY, pkg.autogradDispatchKeyset);
      expect(pkg.tlsIsDispatchKeyExcluded(DispatchKey.AutogradOther)).toBe(true);
    }
    expect(tlsLocalDispatchKeySet()).toEqual(before);
  });
});

describe('torch.set_printoptions / get_printoptions', () => {
  it('sets and reads the options with PyTorch keys', () => {
    expect(torch.get_printoptions()).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sci_mode: null });
    torch.set_printoptions({ precision: 2 });
    expect(String(torch.tensor([1 / 3]))).toBe('tensor([0.33])');
    torch.set_printoptions({ sci_mode: true });
    expect(torch.get_printoptions().sci_mode).toBe(true);
    expect(() => torch.set_printoptions({ foo: 1 } as never)).toThrow("set_printoptions() got an unexpected keyword argument 'foo'");
  });
});

describe('torch.get_rng_state / set_rng_state', () => {
  it('round-trips the default generator through a 5056-byte uint8 tensor', () => {
    torch.manualSeed(7);
    torch.rand(3);
    const state = torch.get_rng_state();
    expect(state.dtype).toBe(torch.uint8);
    expect(state.shape).toEqual([5056]);
    const a = torch.rand(5).tolist();
    const n = torch.randn(3).tolist();
    torch.set_rng_state(state);
    expect(torch.rand(5).tolist()).toEqual(a);
    expect(torch.randn(3).tolist()).toEqual(n);
    expect(torch.get_rng_state().tolist()).not.toEqual(state.tolist());
  });

  it("raises PyTorch's errors", () => {
    expect(() => torch.set_rng_state(torch.zeros(5056))).toThrow(new TypeError('RNG state must be a torch.ByteTensor'));
    expect(() => torch.set_rng_state(torch.zeros(10, { dtype: torch.uint8 }))).toThrow(
      'Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10',
    );
  });
});

describe('complex tensors from values', () => {
  it('torch.complex(real, imag) broadcasts float32 to complex64 and prints as PyTorch', () => {
    const z = torch.complex(torch.tensor([1, 2.5]), torch.tensor([0, -1], { dtype: 'float32' }));
    expect(z.dtype).toBe(torch.complex64);
    expect(String(z)).toBe('tensor([1.0000+0.j, 2.5000-1.j])');
    const b = torch.complex(torch.ones(2, 1, { dtype: 'float64' }), torch.tensor([1, 2, 3], { dtype: 'float64' }));
    expect(b.dtype).toBe(torch.complex128);
    expect(b.shape).toEqual([2, 3]);
    expect(b.tolist()).toEqual([
      [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
      [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
    ]);
    expect(torch.complex(torch.empty(2, { device: 'meta' }), torch.empty(2, { device: 'meta' })).dtype).toBe(torch.complex64);
  });

  it("raises PyTorch's dtype errors", () => {
    const l = torch.ones(2, { dtype: 'int64' });
    expect(() => torch.complex(l, l)).toThrow('Expected both inputs to be Half, Float or Double tensors but got Long and Long');
    expect(() => torch.complex(torch.ones(2), torch.ones(2, { dtype: 'float64' }))).toThrow(
      'Expected object of scalar type Float but got scalar type Double for second argument',
    );
  });

  it('torch.tensor takes { re, im } elements (the default complex dtype follows the default dtype)', () => {
    const t = torch.tensor([
      { re: 1, im: 2 },
      { re: -0, im: -0.5 },
    ]);
    expect(t.dtype).toBe(torch.complex64);
    expect(String(t)).toBe('tensor([1.+2.0000j, -0.-0.5000j])');
    torch.setDefaultDtype(torch.float64);
    expect(torch.tensor([{ re: 1, im: 2 }]).dtype).toBe(torch.complex128);
    expect(torch.tensor([1, 2], { dtype: torch.complex64 }).tolist()).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});
