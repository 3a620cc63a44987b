import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BackendComponent,
  DispatchKey,
  DispatchKeySet,
  NUM_RUNTIME_ENTRIES,
  afterAutogradKeyset,
  defaultExcludedSet,
  defaultIncludedSet,
  dispatchKeyToString,
  functionalityOffsetAndMask,
  getDispatchTableIndexForDispatchKey,
  isPerBackendFunctionalityKey,
  toFunctionalityKey,
} from '../../src/c10/index.js';

// A slow, obviously-correct model of PyTorch's uint64 key set on BigInt, to fuzz the two-halves
// implementation against. See Note [DispatchKeySet representation].
const U64 = (1n << 64n) - 1n;
const model = {
  minus: (a: bigint, b: bigint) => a & (0xffffn | (~b & U64)),
  highestBit: (x: bigint) => (x === 0n ? 0 : x.toString(2).length),
  tableIndex(x: bigint): number {
    const f = model.highestBit(x >> 16n);
    const { offset, mask } = functionalityOffsetAndMask(f);
    return offset + model.highestBit((x & BigInt(mask)) >> 1n);
  },
};

const arbSet = fc
  .tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 2 ** 30 - 1 }))
  .map(([lo, hi]) => DispatchKeySet.fromBits(lo, hi));
const runtimeKeys: DispatchKey[] = [];
for (let k = 1; k <= 149; k++) {
  // Skip EndOfFunctionalityKeys, the StartOf<F>Backends values and the bare per-backend functionalities.
  if (k !== 47 && ![48, 65, 82, 99, 116, 133].includes(k) && !isPerBackendFunctionalityKey(k)) runtimeKeys.push(k);
}
const arbKeySet = fc.array(fc.constantFrom(...runtimeKeys), { maxLength: 6 }).map((ks) => DispatchKeySet.of(...ks));

describe('DispatchKeySet bit layout (reference A.4)', () => {
  it('builds the four constructor cases', () => {
    expect(DispatchKeySet.fromKey(DispatchKey.Undefined).raw).toBe(0n);
    expect(DispatchKeySet.fromKey(DispatchKey.Dense).raw).toBe(65536n);
    expect(DispatchKeySet.fromKey(DispatchKey.CPU).raw).toBe(65537n);
    expect(DispatchKeySet.fromKey(DispatchKey.AutogradCPU).raw).toBe(2n ** 36n + 1n);
    expect(DispatchKeySet.fromKey(DispatchKey.QuantizedMeta).raw).toBe(2n ** 20n + 2n ** 15n);
    expect(DispatchKeySet.fromKey(DispatchKey.CompositeImplicitAutograd).raw).toBe(0n);
    expect(DispatchKeySet.fromBackend(BackendComponent.MetaBit).raw).toBe(1n << 15n);
  });

  it('prints a CPU tensor set like PyTorch', () => {
    const ks = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradCPU, DispatchKey.AutocastCPU);
    expect(ks.toString()).toBe('DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)');
    expect(ks.raw).toBe(635655225345n);
    expect(DispatchKeySet.EMPTY.toString()).toBe('DispatchKeySet()');
  });

  it('forms the cross product of functionality and backend bits', () => {
    const ks = DispatchKeySet.of(DispatchKey.SparseIPU, DispatchKey.SparseCsrHIP);
    expect(ks.toString()).toBe('DispatchKeySet(SparseHIP, SparseIPU, SparseCsrHIP, SparseCsrIPU)');
  });

  it('hides bare per-backend functionality bits when printing', () => {
    const ks = DispatchKeySet.fromKey(DispatchKey.AutogradFunctionality);
    expect(ks.isEmpty()).toBe(false);
    expect(ks.toString()).toBe('DispatchKeySet()');
    expect([...ks]).toEqual([]);
  });

  it('has FULL = 2^62 - 1 and the named sets of the reference', () => {
    expect(DispatchKeySet.FULL.raw).toBe(2n ** 62n - 1n);
    expect(afterAutogradKeyset.raw).toBe(2305843043573432319n);
    expect(defaultIncludedSet.raw).toBe(17246978048n);
    expect(defaultExcludedSet.raw).toBe(562400197607424n);
  });

  it('removes functionality bits only', () => {
    const a = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.CUDA, DispatchKey.AutogradCPU, DispatchKey.AutogradCUDA);
    expect(a.minus(DispatchKeySet.fromKey(DispatchKey.AutogradCPU)).toString()).toBe('DispatchKeySet(CPU, CUDA)');
    expect(a.remove(DispatchKey.AutogradCPU).toString()).toBe('DispatchKeySet(CPU, CUDA)');
    expect(a.removeBackend(BackendComponent.CUDABit).toString()).toBe('DispatchKeySet(CPU, AutogradCPU)');
  });

  it('keeps lower functionalities and PythonDispatcher in fullAfter', () => {
    const ks = DispatchKeySet.fullAfter(DispatchKey.AutogradCPU);
    expect(ks.has(DispatchKey.AutogradOther)).toBe(true);
    expect(ks.has(DispatchKey.AutogradCPU)).toBe(false);
    expect(ks.has(DispatchKey.PythonDispatcher)).toBe(true);
    expect(ks.has(DispatchKey.CPU)).toBe(true);
  });

  it('rejects has(Undefined) and bad inputs with clear errors', () => {
    expect(() => DispatchKeySet.EMPTY.has(DispatchKey.Undefined)).toThrow(/Undefined/);
    expect(() => DispatchKeySet.fromRaw(-1n)).toThrow(/not a uint64/);
    expect(() => DispatchKeySet.fromKey(400 as DispatchKey)).toThrow(/400/);
  });
});

describe('dispatch table indices (reference A.5)', () => {
  it('has 137 runtime entries', () => {
    expect(NUM_RUNTIME_ENTRIES).toBe(137);
  });

  it('lays the table out as PyTorch does', () => {
    const expected: [DispatchKey, number][] = [
      [DispatchKey.Undefined, 0],
      [DispatchKey.CPU, 1],
      [DispatchKey.Meta, 16],
      [DispatchKey.FPGA, 17],
      [DispatchKey.Vulkan, 18],
      [DispatchKey.Metal, 19],
      [DispatchKey.QuantizedCPU, 20],
      [DispatchKey.QuantizedMeta, 35],
      [DispatchKey.CustomRNGKeyId, 36],
      [DispatchKey.MkldnnCPU, 37],
      [DispatchKey.SparseCPU, 38],
      [DispatchKey.SparseCsrCPU, 54],
      [DispatchKey.NestedTensorCPU, 70],
      [DispatchKey.BackendSelect, 86],
      [DispatchKey.Fake, 87],
      [DispatchKey.Python, 88],
      [DispatchKey.FuncTorchDynamicLayerBackMode, 89],
      [DispatchKey.Functionalize, 90],
      [DispatchKey.ZeroTensor, 93],
      [DispatchKey.ADInplaceOrView, 94],
      [DispatchKey.AutogradOther, 95],
      [DispatchKey.AutogradCPU, 96],
      [DispatchKey.AutogradMeta, 111],
      [DispatchKey.AutogradNestedTensor, 112],
      [DispatchKey.Tracer, 113],
      [DispatchKey.AutocastCPU, 114],
      [DispatchKey.AutocastPrivateUse1, 123],
      [DispatchKey.FuncTorchBatched, 124],
      [DispatchKey.Batched, 127],
      [DispatchKey.PythonTLSSnapshot, 131],
      [DispatchKey.PreDispatch, 135],
      [DispatchKey.PythonDispatcher, 136],
      // Bare per-backend functionality and StartOf values land on the CPU slot of their block.
      [DispatchKey.Dense, 1],
      [DispatchKey.AutogradFunctionality, 96],
      [DispatchKey.StartOfQuantizedBackends, 20],
      [DispatchKey.CompositeImplicitAutograd, 0],
    ];
    for (const [k, idx] of expected)
      expect([dispatchKeyToString(k), getDispatchTableIndexForDispatchKey(k)]).toEqual([dispatchKeyToString(k), idx]);
  });

  it('gives every runtime key a distinct slot', () => {
    const seen = new Map<number, DispatchKey>();
    for (const k of runtimeKeys) {
      const idx = getDispatchTableIndexForDispatchKey(k);
      expect(idx).toBeGreaterThan(0);
      expect(idx).toBeLessThan(NUM_RUNTIME_ENTRIES);
      expect(seen.get(idx)).toBeUndefined();
      seen.set(idx, k);
    }
    expect(seen.size).toBe(NUM_RUNTIME_ENTRIES - 1);
  });

  it('lets only the highest backend bit count', () => {
    expect(DispatchKeySet.of(DispatchKey.CPU, DispatchKey.Meta).getDispatchTableIndexForDispatchKeySet()).toBe(16);
  });
});

describe('DispatchKeySet properties', () => {
  it('agrees with the BigInt model on union, intersection, difference, highest bits and table index', () => {
    fc.assert(
      fc.property(arbSet, arbSet, (a, b) => {
        expect(a.or(b).raw).toBe(a.raw | b.raw);
        expect(a.and(b).raw).toBe(a.raw & b.raw);
        expect(a.xor(b).raw).toBe(a.raw ^ b.raw);
        expect(a.minus(b).raw).toBe(model.minus(a.raw, b.raw));
        expect(a.indexOfHighestBit()).toBe(model.highestBit(a.raw));
        expect(a.getDispatchTableIndexForDispatchKeySet()).toBe(model.tableIndex(a.raw));
        expect(DispatchKeySet.fromRaw(a.raw).equals(a)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('obeys the set-algebra laws', () => {
    fc.assert(
      fc.property(arbSet, arbSet, arbSet, (a, b, c) => {
        expect(a.or(b).equals(b.or(a))).toBe(true);
        expect(
          a
            .or(b)
            .or(c)
            .equals(a.or(b.or(c))),
        ).toBe(true);
        expect(a.and(b.or(c)).equals(a.and(b).or(a.and(c)))).toBe(true);
        expect(a.or(a).equals(a)).toBe(true);
        expect(a.or(b).isSupersetOf(a)).toBe(true);
        expect(a.hasAny(b)).toBe(!a.and(b).isEmpty());
        // Difference never removes backend bits.
        expect(a.minus(b).lo & 0xffff).toBe(a.lo & 0xffff);
      }),
    );
  });

  it('iterates lowest priority first, agreeing with repeated highest-key removal', () => {
    // With one backend, every per-backend functionality has a single runtime key, so removing the highest
    // key's functionality bit walks the set in exact reverse iteration order.
    const oneBackend = fc
      .integer({ min: 0, max: 15 })
      .chain((b) =>
        fc.array(
          fc.constantFrom(
            ...runtimeKeys.filter(
              (k) => !isPerBackendFunctionalityKey(toFunctionalityKey(k)) || (DispatchKeySet.fromKey(k).lo & 0xffff) === 1 << b,
            ),
          ),
          { maxLength: 8 },
        ),
      );
    fc.assert(
      fc.property(oneBackend, (keys) => {
        let ks = DispatchKeySet.of(...keys);
        const iterated = [...ks];
        const removed: DispatchKey[] = [];
        while (ks.highestFunctionalityKey() !== DispatchKey.Undefined) {
          const top = ks.highestPriorityTypeId();
          removed.push(top);
          ks = ks.remove(top);
        }
        expect(removed).toEqual(iterated.reverse());
      }),
    );
  });

  it('finds the highest-priority key as the last key iterated', () => {
    fc.assert(
      fc.property(arbKeySet, (ks) => {
        const keys = [...ks];
        if (keys.length === 0) return;
        expect(ks.highestPriorityTypeId()).toBe(keys[keys.length - 1]);
      }),
    );
  });
});
