// The restricted unpickler (Note [Restricted unpickling]) on crafted pickles: what it refuses and how it
// says so, and the JavaScript form of Python values (Note [Python values in JavaScript]). The pickles are
// opcode sequences written out here (the PyTorch-written checkpoints are in torch_format.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import { PyTorchStreamWriter } from '../../src/serialization/inline_container.js';
import { isOrderedDict, isTuple, markOrderedDict, setSerializationFileSystem, tuple } from '../../src/serialization/index.js';
import { safetensors } from '../../src/index.js';

/** A torch.save archive whose data.pkl is `pickle` (a binary string of opcodes). */
function archive(pickle: string, records: Record<string, Uint8Array> = {}): Uint8Array {
  const w = new PyTorchStreamWriter();
  w.writeRecord(
    'data.pkl',
    Uint8Array.from(pickle, (c) => c.charCodeAt(0)),
  );
  for (const [name, data] of Object.entries(records)) w.writeRecord(name, data);
  return w.writeEndOfFile();
}
const str = (s: string): string => `X${String.fromCharCode(s.length, 0, 0, 0)}${s}`;

describe('the restricted unpickler refuses', () => {
  it('any global outside the allowlist, by name, with GLOBAL or STACK_GLOBAL', () => {
    const msg = 'Unsupported global: GLOBAL os.system was not an allowed global by default';
    expect(() => torch.load(archive(`\x80\x02cos\nsystem\n${str('echo pwned')}\x85R.`))).toThrow(msg);
    expect(() => torch.load(archive(`\x80\x04\x8c\x02os\x8c\x06system\x93${str('echo')}\x85R.`))).toThrow(msg);
    expect(() => torch.load(archive('\x80\x02cbuiltins\neval\n.'))).toThrow('GLOBAL builtins.eval was not an allowed global');
  });

  it('calling an allowed global that is not a function (REDUCE)', () => {
    expect(() => torch.load(archive('\x80\x02ctorch\nFloatStorage\n)R.'))).toThrow(
      'Trying to call reduce for unrecognized function torch.FloatStorage',
    );
  });

  it('BUILD of anything but an OrderedDict, and object-building opcodes', () => {
    expect(() => torch.load(archive('\x80\x02}}b.'))).toThrow('Can only build OrderedDict');
    expect(() => torch.load(archive('\x80\x02(cos\nsystem\no.'))).toThrow('GLOBAL os.system');
    expect(() => torch.load(archive('\x80\x02(i__main__\nX\n.'))).toThrow('Unsupported operand 105');
    expect(() => torch.load(archive('\x80\x02I1\n.'))).toThrow('Unsupported operand 73');
  });

  it('persistent ids other than storages, unknown storage types, and missing or short storage records', () => {
    expect(() => torch.load(archive(`\x80\x02(${str('module')}tQ.`))).toThrow('Only persistent_load of storage is allowed');
    expect(() => torch.load(archive(`\x80\x02${str('storage')}Q.`))).toThrow('persistent_load id must be tuple');
    expect(() => torch.load(archive(`\x80\x02(${str('storage')}ctorch\nQInt8Storage\n`))).toThrow('GLOBAL torch.QInt8Storage');
    const pid = `(${str('storage')}ctorch\nFloatStorage\n${str('0')}${str('cpu')}K\x02tQ.`;
    expect(() => torch.load(archive(`\x80\x02${pid}`))).toThrow('PytorchStreamReader failed locating file data/0');
    expect(() => torch.load(archive(`\x80\x02${pid}`, { 'data/0': new Uint8Array(4) }))).toThrow('has 4 bytes, expected 2 × 4');
  });

  it('a tensor reaching past its storage', () => {
    const pid = `(${str('storage')}ctorch\nFloatStorage\n${str('0')}${str('cpu')}K\x02tQ`;
    const pkl = `\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(${pid}K\x01K\x02\x85K\x01\x85\x89ccollections\nOrderedDict\n)RtR.`;
    expect(() => torch.load(archive(pkl, { 'data/0': new Uint8Array(8) }))).toThrow('out of bounds for storage of size 8');
  });

  it('reads storages of a big-endian file (byteorder "big") in their byte order', () => {
    const pid = `(${str('storage')}ctorch\nFloatStorage\n${str('0')}${str('cpu')}K\x02tQ`;
    const pkl = `\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(${pid}K\x00K\x02\x85K\x01\x85\x89ccollections\nOrderedDict\n)RtR.`;
    const data = new Uint8Array(8);
    new DataView(data.buffer).setFloat32(0, 1.5, false);
    new DataView(data.buffer).setFloat32(4, -2, false);
    const big = archive(pkl, { byteorder: new TextEncoder().encode('big'), 'data/0': data });
    expect((torch.load(big) as { tolist(): unknown }).tolist()).toEqual([1.5, -2]);
  });

  it('truncated pickles, non-zip bytes and the legacy format', () => {
    expect(() => torch.load(archive('\x80\x02X\x05\x00\x00\x00ab'))).toThrow('pickle data was truncated');
    expect(() => torch.load(new Uint8Array([1, 2, 3, 4, 5]))).toThrow('failed finding central directory');
    expect(() => torch.load(Uint8Array.from([0x80, 0x02, 0x8a, 0x0a]))).toThrow('legacy (pre-1.6) torch.save format');
  });
});

describe('Python values in JavaScript', () => {
  it('dicts with index-like or __proto__ keys become Maps; no prototype is touched', () => {
    const loaded = torch.load(archive(`\x80\x02}(${str('__proto__')}K\x01${str('x')}K\x02u.`)) as Map<string, number>;
    expect(loaded).toBeInstanceOf(Map);
    expect([...loaded.entries()]).toEqual([
      ['__proto__', 1],
      ['x', 2],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const plain = torch.load(archive(`\x80\x02}(${str('b')}K\x01${str('a.0')}K\x02u.`)) as Record<string, number>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.entries(plain)).toEqual([
      ['b', 1],
      ['a.0', 2],
    ]);
  });

  it('a repeated dict key keeps its first position and its last value, as in Python', () => {
    expect(Object.entries(torch.load(archive(`\x80\x02}(${str('a')}K\x01${str('b')}K\x02${str('a')}K\x03u.`)) as object)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('tuples, OrderedDicts and big ints survive a save/load round trip', () => {
    const obj = markOrderedDict({ t: tuple([1, 'x']), l: [1, 2], big: -(2n ** 64n), f: 0.5, none: null, undef: undefined });
    const back = torch.load(torch.save(obj)) as Record<string, unknown>;
    expect(isOrderedDict(back)).toBe(true);
    expect(isTuple(back.t)).toBe(true);
    expect(isTuple(back.l)).toBe(false);
    expect(back).toEqual({ t: [1, 'x'], l: [1, 2], big: -(2n ** 64n), f: 0.5, none: null, undef: null });
  });

  it('a list that holds itself loads as an array that holds itself', () => {
    const back = torch.load(archive('\x80\x02]q\x00h\x00a.')) as unknown[];
    expect(back[0]).toBe(back);
    const l: unknown[] = [];
    l.push(l);
    const again = torch.load(torch.save(l)) as unknown[];
    expect(again[0]).toBe(again);
  });
});

describe('file paths', () => {
  it('need a file system (src/node.ts installs Node’s); the archive folder is the file stem', () => {
    const node = setSerializationFileSystem(null); // test/setup.ts loads src/node.ts, which installs Node's
    const files = new Map<string, Uint8Array>();
    try {
      expect(() => torch.save({}, 'model.pt')).toThrow('needs Node.js');
      expect(() => torch.load('model.pt')).toThrow('needs Node.js');
    } finally {
      setSerializationFileSystem(node);
    }
    const previous = setSerializationFileSystem({
      readFile: (p) => files.get(p) ?? new Uint8Array(),
      writeFile: (p, d) => void files.set(p, d),
    });
    try {
      torch.save({ w: torch.ones(2) }, 'runs/model.v2.pt');
      const bytes = files.get('runs/model.v2.pt') as Uint8Array;
      expect(new TextDecoder().decode(bytes.subarray(30, 30 + 'model.v2/data.pkl'.length))).toBe('model.v2/data.pkl');
      expect((torch.load('runs/model.v2.pt') as { w: { tolist(): unknown } }).w.tolist()).toEqual([1, 1]);
      safetensors.save_file({ w: torch.ones(3) }, 'w.safetensors');
      expect(safetensors.load_file('w.safetensors').w?.tolist()).toEqual([1, 1, 1]);
    } finally {
      setSerializationFileSystem(previous);
    }
  });

  it('under Node.js (src/node.ts), torch.save(obj, path) writes the file torch.load(path) reads', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'aten-ts-ser-')), 'ckpt.pt');
    torch.save({ w: torch.arange(3) }, path);
    expect(
      readFileSync(path)
        .subarray(30, 30 + 'ckpt/data.pkl'.length)
        .toString(),
    ).toBe('ckpt/data.pkl');
    expect((torch.load(path) as { w: { tolist(): unknown } }).w.tolist()).toEqual([0, 1, 2]);
  });
});
