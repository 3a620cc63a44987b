// torch.save / torch.load against PyTorch 2.13's own files: every golden checkpoint (written by the wheel's
// torch.save) loads to what PyTorch loads (values, dtypes, shapes, strides, offsets, storage sharing, key
// order), and saving it back gives torch's bytes. Fixtures: test/golden/serialization/*.pt and
// test/golden/serialization.json (tools/golden/gen_serialization.py). With ATEN_TS_ROUNDTRIP_DIR set, the
// files aten-ts writes here go to that folder for tools/golden/check_roundtrip.py (loads them in the wheel).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { Tensor, safetensors, torch } from '../../src/index.js';
import { tuple } from '../../src/serialization/index.js';
import { loadGolden } from '../golden.js';
import { asJavaScriptReadsIt, pythonTree } from './python_tree.js';

interface Golden {
  files: Record<string, unknown>;
  refused_error: string;
}
const golden = loadGolden<Golden>('serialization.json');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../golden/serialization/${name}`, import.meta.url)));
const outDir = process.env.ATEN_TS_ROUNDTRIP_DIR;

/** Hands a file aten-ts wrote, and the tree it holds, to tools/golden/check_roundtrip.py. */
function emit(name: string, bytes: Uint8Array, tree: unknown): void {
  if (outDir === undefined || outDir === '') return;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, name), bytes);
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify(tree));
}

/** Local-header offset of a record (from the central directory), to compare files around it. */
function recordOffset(bytes: Uint8Array, name: string): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const want = new TextEncoder().encode(name);
  for (let p = bytes.length - 22; p >= 0; p--) {
    if (v.getUint32(p, true) !== 0x02014b50) continue;
    const n = v.getUint16(p + 28, true);
    if (n === want.length && want.every((b, i) => bytes[p + 46 + i] === b)) return v.getUint32(p + 42, true);
  }
  throw new Error(`no record ${name}`);
}

const PT_FILES = [
  'model_state_dict.pt',
  'adam_state_dict.pt',
  'views.pt',
  'dtypes.pt',
  'nested.pt',
  'stem_named.pt',
  'protocol4.pt',
  'protocol5.pt',
];

describe('torch.load reads what PyTorch 2.13 torch.save wrote', () => {
  for (const name of PT_FILES) {
    it(name, () => {
      const loaded = torch.load(fixture(name));
      expect(pythonTree(loaded)).toEqual(asJavaScriptReadsIt(golden.files[name]));
    });
  }

  it('a model state dict is a plain object of tensors in state_dict order, with _metadata kept', () => {
    const sd = torch.load(fixture('model_state_dict.pt')) as Record<string, Tensor>;
    expect(Object.keys(sd)).toEqual([
      'conv.weight',
      'conv.bias',
      'bn.weight',
      'bn.bias',
      'bn.running_mean',
      'bn.running_var',
      'bn.num_batches_tracked',
      'fc.weight',
      'fc.bias',
    ]);
    expect(sd['conv.weight']).toBeInstanceOf(Tensor);
    expect(sd['bn.num_batches_tracked']?.dtype).toBe(torch.int64);
    expect(sd['bn.num_batches_tracked']?.item()).toBe(1);
    const meta = (sd as unknown as { _metadata: Record<string, unknown> })._metadata;
    expect(Object.keys(meta)).toEqual(['', 'conv', 'bn', 'fc']);
    expect(meta.bn).toEqual({ version: 2 });
  });

  it("an optimizer state dict: `state` is a Map with int keys, param_groups' params are ints", () => {
    const osd = torch.load(fixture('adam_state_dict.pt')) as {
      state: Map<number, Record<string, Tensor>>;
      param_groups: Record<string, unknown>[];
    };
    expect(osd.state).toBeInstanceOf(Map);
    expect([...osd.state.keys()]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Object.keys(osd.state.get(0) ?? {})).toEqual(['step', 'exp_avg', 'exp_avg_sq']);
    expect(osd.state.get(0)?.step?.item()).toBe(1);
    expect(osd.param_groups[0]?.params).toEqual([0, 1, 2, 3, 4, 5]);
    expect(osd.param_groups[0]?.lr).toBe(0.01);
    expect(osd.param_groups[0]?.betas).toEqual([0.9, 0.999]);
  });

  it('views of one storage load sharing one storage, with their offsets and strides', () => {
    const v = torch.load(fixture('views.pt')) as Record<string, Tensor>;
    const { base, transposed, row, every_other: everyOther, other } = v as Record<string, Tensor>;
    expect(transposed?.storage).toBe(base?.storage);
    expect(row?.storage).toBe(base?.storage);
    expect(everyOther?.storage).toBe(base?.storage);
    expect(other?.storage).not.toBe(base?.storage);
    expect([transposed?.strides, row?.storageOffset, everyOther?.storageOffset, everyOther?.strides]).toEqual([[1, 4], 4, 1, [4, 2]]);
    base?.mul_(2); // one storage: a write through the base shows in every view
    expect(row?.tolist()).toEqual([8, 10, 12, 14]);
    expect((transposed?.tolist() as number[][])[0]).toEqual([0, 8, 16]);
  });

  it('the same tensor twice in a file loads as one tensor (tied weights)', () => {
    const n = torch.load(fixture('nested.pt')) as Record<string, unknown>;
    expect(n.tied_a).toBe(n.tied_b);
    expect(n.huge).toBe(2n ** 70n);
    expect(n.int_keys).toEqual(
      new Map([
        [0, 'a'],
        [10, 'b'],
        [-3, 'c'],
      ]),
    );
    expect(n.index_like_keys).toEqual(
      new Map([
        ['2', 1],
        ['1', 2],
      ]),
    );
    expect((n.grad_leaf as Tensor).requiresGrad).toBe(true);
    expect((n.parameter as Tensor).requiresGrad).toBe(true);
  });

  it('refuses a global outside the allowlist, naming it as PyTorch does, without running anything', () => {
    const text = 'Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default';
    expect(golden.refused_error).toContain(text);
    expect(() => torch.load(fixture('refused.pt'))).toThrow(text);
  });

  it('rejects options PyTorch has but aten-ts cannot honour, and unknown keys', () => {
    const bytes = fixture('views.pt');
    expect(() => torch.load(bytes, { weights_only: false as true })).toThrow('weights_only must be true');
    expect(() => torch.load(bytes, { map_location: 'cuda' as 'cpu' })).toThrow("map_location must be 'cpu'");
    expect(() => torch.load(bytes, { mmap: true } as never)).toThrow("unexpected keyword argument 'mmap'");
    expect(torch.load(bytes, { map_location: 'cpu', weights_only: true })).toBeTruthy();
  });
});

describe('torch.save writes what PyTorch 2.13 torch.save writes', () => {
  for (const name of ['model_state_dict.pt', 'adam_state_dict.pt', 'views.pt', 'dtypes.pt']) {
    it(`${name}: load then save gives torch's bytes (all but the serialization id's first 20 digits)`, () => {
      const original = fixture(name);
      const saved = torch.save(torch.load(original));
      const idAt = recordOffset(saved, 'archive/.data/serialization_id');
      expect(saved.length).toBe(original.length);
      expect(recordOffset(original, 'archive/.data/serialization_id')).toBe(idAt);
      expect(saved.subarray(0, idAt)).toEqual(original.subarray(0, idAt));
      const id = (b: Uint8Array): string => new TextDecoder().decode(unzipSync(b)['archive/.data/serialization_id']);
      // The second half is torch's combined CRC-32 of the records (Note [Deterministic serialization id]).
      expect(id(saved).slice(20)).toBe(id(original).slice(20));
      let differing = 0;
      for (let i = idAt; i < saved.length; i++) if (saved[i] !== original[i]) differing++;
      expect(differing).toBeLessThanOrEqual(20 + 8); // the id's first 20 digits and its CRC in two places
      emit(name, saved, pythonTree(torch.load(saved)));
    });
  }

  it('nested.pt: load then save loads back to the same tree (1.0 becomes the int 1, as documented)', () => {
    const saved = torch.save(torch.load(fixture('nested.pt')));
    const tree = pythonTree(torch.load(saved));
    expect(tree).toEqual(asJavaScriptReadsIt(golden.files['nested.pt']));
    emit('nested.pt', saved, tree);
  });

  it('is deterministic and writes a loadable file for objects built in aten-ts', () => {
    torch.manualSeed(0);
    const base = torch.arange(12, { dtype: 'float32' }).reshape(3, 4);
    const weight = torch.randn(4, 3);
    const obj = {
      base,
      t: base.t(),
      row: base.select(0, 1),
      cols: base.narrow(1, 1, 2),
      weight,
      weight_again: weight,
      steps: torch.tensor([3, -(2 ** 40), 2 ** 53], { dtype: 'int64' }),
      half: torch.tensor([0.5, -2, 65504], { dtype: 'float16' }),
      bf: torch.tensor([1.5, -3], { dtype: 'bfloat16' }),
      mask: torch.tensor([true, false]),
      scalar: torch.tensor(2.5),
      leaf: torch.ones(2).requiresGrad_(),
      optim: {
        state: new Map([[0, { step: torch.tensor(1.0), exp_avg: torch.zeros(2) }]]),
        param_groups: [{ lr: 0.01, betas: tuple([0.9, 0.999]), eps: 1e-8, weight_decay: 0, amsgrad: false, foreach: null, params: [0] }],
      },
      big: 2n ** 70n,
      text: 'çå∑',
    };
    const a = torch.save(obj);
    expect(torch.save(obj)).toEqual(a);
    const back = torch.load(a) as typeof obj;
    const tree = pythonTree(back);
    expect(tree).toEqual(pythonTree(obj));
    expect(back.t.storage).toBe(back.base.storage);
    expect(back.cols.storage).toBe(back.base.storage);
    expect(back.weight_again).toBe(back.weight);
    expect(Object.keys(unzipSync(a)).filter((k) => k.startsWith('archive/data/'))).toHaveLength(10);
    emit('fresh.pt', a, tree);
  });

  it('refuses values it cannot write, naming their type', () => {
    expect(() => torch.save({ f: () => 1 })).toThrow('cannot save a function');
    expect(() => torch.save({ d: new Date(0) })).toThrow('cannot save an object of type Date');
    expect(() => torch.save(torch.empty(2, { device: 'meta' }))).toThrow('cannot save a meta tensor');
  });

  it('refuses two dtypes over one storage, as PyTorch does', () => {
    const t = torch.zeros(4, { dtype: 'int32' });
    const asFloat = new Tensor(t.storage, torch.float32.scalarType, [4], [1], 0);
    expect(() => torch.save([t, asFloat])).toThrow('Cannot save multiple tensors or storages that view the same data as different types');
  });
});

describe('safetensors files written here for check_roundtrip.py', () => {
  it('fresh.safetensors', () => {
    const tensors = {
      weight: torch.arange(6, { dtype: 'float32' }).reshape(2, 3).div(4),
      steps: torch.tensor([3, -(2 ** 40)], { dtype: 'int64' }),
      half: torch.tensor([0.5, 2, -4], { dtype: 'float16' }),
      mask: torch.tensor([true, false, true]),
      transposed: torch.arange(6, { dtype: 'float64' }).reshape(2, 3).t(),
    };
    const bytes = safetensors.save(tensors, { format: 'pt' });
    const back = safetensors.load(bytes);
    const tree = Object.fromEntries(Object.entries(back).map(([k, v]) => [k, (pythonTree(v) as { tensor: unknown }).tensor]));
    expect(back.transposed?.tolist()).toEqual(tensors.transposed.tolist());
    emit('fresh.safetensors', bytes, tree);
  });
});
