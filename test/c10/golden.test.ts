// Conformance of the c10 core with PyTorch 2.13, against test/golden/c10.json (tools/golden/gen_c10.py).
import { describe, expect, it } from 'vitest';
import {
  Device,
  DispatchKey,
  DispatchKeySet,
  backendFunctionalityKeys,
  afterADInplaceOrViewKeyset,
  afterAutogradKeyset,
  autogradotherBackends,
  computeDispatchKey,
  defaultExcludedSet,
  defaultIncludedSet,
  deviceTypeName,
  dispatchKeyToString,
  dtypeName,
  elementSize,
  getBackendKeySetFromAutograd,
  getRuntimeDispatchKeySet,
  isComplexType,
  isFloatingType,
  isIncludedInAlias,
  isSignedType,
  parseDispatchKey,
  parseLayout,
  parseScalarType,
  promoteTypes,
  tensorDispatchKeySet,
  toFunctionalityKey,
} from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

interface C10Golden {
  all_keys: { value: number; name: string; raw: string; set_str: string; functionality_value: number }[];
  parse: { text: string; ok: boolean; value?: number; error?: string }[];
  tensor_keysets: { desc: string; str: string; raw: string; legacy_key_value: number; layout: string; device: string; dtype: string }[];
  sets: { values: number[]; or_raw?: string; raw: string; str: string; highest_value: number; has_values: number[] }[];
  full: string;
  full_after: { value: number; raw: string; str: string }[];
  removal: { a: string; b: string; minus: string; and: string; or: string }[];
  key_ops: { a: string; value: number; add: string; remove: string }[];
  backend_keyset_from_autograd: { value: number; raw: string; str: string }[];
  alias_runtime_keys: { alias: string; value: number; keys: string[]; is_included_in_alias: number[] }[];
  named_sets: Record<string, string>;
  helper_sets: Record<string, string>;
  dtypes: string[];
  promote: (string | { error: string })[][];
  dtype_props: { name: string; itemsize: number; is_floating_point: boolean; is_complex: boolean; is_signed: boolean }[];
  device_keys: { kind: string; device: string; layout?: string; dtype?: string; key?: string; error?: string }[];
  device_parse: { text: string; type?: string; index?: number | null; error?: string }[];
}

const golden = loadGolden<C10Golden>('c10.json');
const raw = (s: string) => DispatchKeySet.fromRaw(BigInt(s));

describe('c10 golden: dispatch keys', () => {
  it('prints every key and builds its set like PyTorch', () => {
    expect(golden.all_keys).toHaveLength(156);
    for (const k of golden.all_keys) {
      expect(dispatchKeyToString(k.value)).toBe(k.name);
      expect(DispatchKeySet.fromKey(k.value).raw.toString()).toBe(k.raw);
      expect(DispatchKeySet.fromKey(k.value).toString()).toBe(k.set_str);
      if (k.value <= 149) expect(toFunctionalityKey(k.value)).toBe(k.functionality_value);
    }
  });

  it('parses exactly the names PyTorch parses', () => {
    expect(golden.parse.length).toBeGreaterThan(150);
    for (const p of golden.parse) {
      if (p.ok) expect(parseDispatchKey(p.text)).toBe(p.value);
      else expect(() => parseDispatchKey(p.text)).toThrow(p.error);
    }
  });
});

describe('c10 golden: key sets', () => {
  it('computes highest keys, membership, printing and raw values of random sets', () => {
    expect(golden.sets.length).toBeGreaterThanOrEqual(300);
    for (const s of golden.sets) {
      // or_raw: extra raw bits (bare backend bits) that no key stands for.
      const ks = DispatchKeySet.of(...s.values).or(raw(s.or_raw ?? '0'));
      expect(ks.raw.toString()).toBe(s.raw);
      expect(ks.toString()).toBe(s.str);
      expect(ks.highestPriorityTypeId()).toBe(s.highest_value);
      const has: number[] = [];
      for (let k = 1; k <= 149; k++) if (ks.has(k)) has.push(k);
      expect(has).toEqual(s.has_values);
    }
  });

  it('computes FULL and FULL_AFTER of every key', () => {
    expect(DispatchKeySet.FULL.raw.toString()).toBe(golden.full);
    for (const f of golden.full_after) {
      const ks = DispatchKeySet.fullAfter(f.value);
      expect([f.value, ks.raw.toString()]).toEqual([f.value, f.raw]);
      expect(ks.toString()).toBe(f.str);
    }
  });

  it('computes -, &, | and add/remove like PyTorch', () => {
    for (const r of golden.removal) {
      expect(raw(r.a).minus(raw(r.b)).raw.toString()).toBe(r.minus);
      expect(raw(r.a).and(raw(r.b)).raw.toString()).toBe(r.and);
      expect(raw(r.a).or(raw(r.b)).raw.toString()).toBe(r.or);
    }
    for (const op of golden.key_ops) {
      expect(raw(op.a).add(op.value).raw.toString()).toBe(op.add);
      expect(raw(op.a).remove(op.value).raw.toString()).toBe(op.remove);
    }
  });

  it('maps autograd keys to their backend keys', () => {
    for (const b of golden.backend_keyset_from_autograd) {
      expect([b.value, getBackendKeySetFromAutograd(b.value).raw.toString()]).toEqual([b.value, b.raw]);
    }
  });

  it('expands alias keys to the runtime keys PyTorch fills', () => {
    for (const a of golden.alias_runtime_keys) {
      const expected = a.keys.filter((k) => k !== 'Undefined');
      expect([...getRuntimeDispatchKeySet(a.value)].map(dispatchKeyToString)).toEqual(expected);
      const included: number[] = [];
      for (let k = 0; k <= 155; k++) if (isIncludedInAlias(k, a.value)) included.push(k);
      // PyTorch's alias keys have an empty set, which every set "has": see the fixture's note.
      expect(included.filter((k) => k < DispatchKey.Autograd)).toEqual(a.is_included_in_alias.filter((k) => k < 150));
    }
  });

  it('has the named sets of PyTorch', () => {
    expect(afterAutogradKeyset.raw.toString()).toBe(golden.named_sets.after_autograd);
    expect(afterADInplaceOrViewKeyset.raw.toString()).toBe(golden.named_sets.after_ADInplaceOrView);
    expect(defaultIncludedSet.raw.toString()).toBe(golden.named_sets.tls_included_default);
    expect(defaultExcludedSet.raw.toString()).toBe(golden.named_sets.tls_excluded_default);
    expect(autogradotherBackends.raw.toString()).toBe(golden.named_sets.autogradother_backends);
    expect(backendFunctionalityKeys.raw.toString()).toBe(golden.helper_sets.backend_functionality_keys);
  });

  it('gives fresh tensors the key sets PyTorch gives them', () => {
    const plain = golden.tensor_keysets.filter((t) => !/nested|conj|neg|zero/.test(t.desc));
    expect(plain.length).toBeGreaterThan(10);
    for (const t of plain) {
      const ks = tensorDispatchKeySet(t.legacy_key_value, { inferenceMode: t.desc.includes('inference') });
      expect([t.desc, ks.toString(), ks.raw.toString()]).toEqual([t.desc, t.str, t.raw]);
    }
  });
});

describe('c10 golden: dtypes', () => {
  const types = golden.dtypes.map(parseScalarType);

  it('promotes every pair like torch.promote_types', () => {
    expect(types).toHaveLength(12);
    golden.promote.forEach((row, i) =>
      row.forEach((expected, j) => {
        expect(typeof expected).toBe('string');
        expect(dtypeName(promoteTypes(types[i]!, types[j]!))).toBe(expected);
      }),
    );
  });

  it('has PyTorch item sizes and categories', () => {
    for (const p of golden.dtype_props) {
      const t = parseScalarType(p.name);
      expect([p.name, elementSize(t), isFloatingType(t), isComplexType(t), isSignedType(t)]).toEqual([
        p.name,
        p.itemsize,
        p.is_floating_point,
        p.is_complex,
        p.is_signed,
      ]);
    }
  });
});

describe('c10 golden: devices', () => {
  it('parses device strings like torch.device', () => {
    for (const d of golden.device_parse) {
      const outOfRange = (d.index === null && /:\d/.test(d.text)) || (d.index ?? 0) < 0 || (d.type === 'cpu' && (d.index ?? 0) > 0);
      if (d.error !== undefined) {
        expect(() => Device.parse(d.text)).toThrow(d.error);
      } else if (outOfRange) {
        // See Note [Device index range]: PyTorch wraps these around; aten-ts rejects them.
        expect(() => Device.parse(d.text)).toThrow(/index/);
      } else {
        const dev = Device.parse(d.text);
        expect([d.text, deviceTypeName(dev.type), dev.index]).toEqual([d.text, d.type, d.index ?? -1]);
        expect(dev.toString()).toBe(d.text);
      }
    }
  });

  it('computes the dispatch key of a device and layout like PyTorch', () => {
    let checked = 0;
    for (const r of golden.device_keys) {
      if (r.kind === 'device_type' && !r.device.includes(':')) {
        // (torch._C._dispatch_key_for_device takes a bare device type; strings with an index are not compared)
        const run = () => computeDispatchKey(undefined, undefined, Device.parse(r.device));
        if (r.error !== undefined) {
          expect(run).toThrow();
        } else {
          expect(dispatchKeyToString(run())).toBe(r.key);
        }
        checked++;
      } else if (r.kind === 'tensor' && r.key !== undefined && r.layout !== 'jagged' && r.layout !== 'nested_strided') {
        const key = computeDispatchKey(parseScalarType(r.dtype!), parseLayout(r.layout!), Device.parse(r.device));
        expect([r.device, r.layout, r.dtype, dispatchKeyToString(key)]).toEqual([r.device, r.layout, r.dtype, r.key]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
