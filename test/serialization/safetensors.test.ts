// safetensors against the format's reference layout: the golden file (tools/golden/gen_serialization.py,
// written by a transcription of the reference writer, since the `safetensors` package is not installed next
// to the wheel) loads to the tensors the wheel described, and saving them back gives the same bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { safetensors, torch } from '../../src/index.js';
import { loadGolden } from '../golden.js';
import { pythonTree } from './python_tree.js';

interface Golden {
  safetensors: { metadata: Record<string, string>; tensors: Record<string, unknown> };
}
const golden = loadGolden<Golden>('serialization.json');
const bytes = new Uint8Array(readFileSync(new URL('../golden/serialization/tensors.safetensors', import.meta.url)));

/** A file with the given header (padded as the reference pads it) and data bytes. */
function file(header: unknown, data: number[] = []): Uint8Array {
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(new TextEncoder().encode(text), 8);
  out.set(data, 8 + text.length);
  return out;
}

describe('safetensors', () => {
  it('loads every dtype the wheel wrote, with shapes and values', () => {
    const { tensors, metadata } = safetensors.deserialize(bytes);
    expect(metadata).toEqual(golden.safetensors.metadata);
    expect(Object.keys(tensors).sort()).toEqual(Object.keys(golden.safetensors.tensors).sort());
    for (const [name, t] of Object.entries(tensors)) {
      expect([name, (pythonTree(t) as { tensor: unknown }).tensor]).toEqual([name, golden.safetensors.tensors[name]]);
    }
  });

  it('saves them back to the same bytes (dtype-descending then name order, space padding to 8)', () => {
    const { tensors, metadata } = safetensors.deserialize(bytes);
    expect(safetensors.save(tensors, metadata)).toEqual(bytes);
    const reversed = Object.fromEntries(Object.entries(tensors).reverse());
    expect(safetensors.save(new Map(Object.entries(reversed)), metadata)).toEqual(bytes);
  });

  it('writes non-contiguous tensors contiguously, and an empty file as the reference does', () => {
    const t = torch.arange(6, { dtype: 'float32' }).reshape(2, 3).t();
    expect(safetensors.load(safetensors.save({ t })).t?.tolist()).toEqual(t.tolist());
    const empty = safetensors.save({});
    expect([...empty]).toEqual([8, 0, 0, 0, 0, 0, 0, 0, ...new TextEncoder().encode('{}      ')]);
  });

  it('rejects malformed files as the reference reader does', () => {
    const f32 = { dtype: 'F32', shape: [1], data_offsets: [0, 4] };
    expect(() => safetensors.load(new Uint8Array(4))).toThrow('HeaderTooSmall');
    expect(() => safetensors.load(file({ a: { ...f32, shape: [2] } }, [0, 0, 0, 0]))).toThrow('TensorInvalidInfo');
    expect(() => safetensors.load(file({ a: f32 }, [0, 0, 0, 0, 0]))).toThrow('MetadataIncompleteBuffer');
    expect(() => safetensors.load(file({ a: { ...f32, data_offsets: [4, 8] } }, [0, 0, 0, 0, 0, 0, 0, 0]))).toThrow('InvalidOffset');
    expect(() => safetensors.load(file({ a: { ...f32, dtype: 'F8_E4M3', shape: [4] } }, [0, 0, 0, 0]))).toThrow('F8_E4M3');
    const long = new Uint8Array(16);
    long[0] = 100;
    expect(() => safetensors.load(long)).toThrow('InvalidHeaderLength');
    expect(() => safetensors.save({ c: torch.zeros(1, { dtype: 'complex64' }) })).toThrow('no code for');
    expect(() => safetensors.save({ a: torch.ones(1) }, { n: 1 as unknown as string })).toThrow('metadata values must be strings');
  });
});
