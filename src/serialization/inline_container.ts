// The zip container of torch.save files: PyTorchStreamWriter and PyTorchStreamReader.
// Mirrors caffe2/serialize/inline_container.cc (the writer byte for byte, see Note [PyTorch's zip layout]);
// reading is fflate's `unzipSync`.

import { unzipSync } from 'fflate';

// Note [PyTorch's zip layout]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch.save writes its zip with miniz through PyTorchStreamWriter, and aten-ts writes the same bytes:
// - every record is STORED (no compression) under one top folder, `archive/` for a buffer, the file's stem
//   for a path (`model.pt` → `model/`);
// - each local header carries an extra field `FB` + a u16 length + that many `Z`s, sized so the record's
//   data starts on a 64-byte boundary (inline_container.cc `getPadding`: storages can then be mmap'ed and
//   read in place); the field is there even when no padding is needed (length 0);
// - local headers have a zero DOS time and date, flags 0x0808 (UTF-8 names, data descriptor follows), zero
//   CRC and sizes; each record's data is followed by a 16-byte data descriptor (PK 07 08, CRC-32, sizes),
//   except an empty record's (flags 0x0800, nothing after its header);
// - the central directory has no extra fields, and is followed by a zip64 end-of-central-directory record
//   and locator (miniz runs with MZ_ZIP_FLAG_WRITE_ZIP64) before the classic end record.
// fflate writes zips too, but not this layout: it has no data descriptors, no zero timestamps (its DOS time
// must lie in 1980–2099, and defaults to now, which would make the bytes differ run to run) and no zip64 end
// record, and it cannot size an extra field from the offset it is about to write at. The writer below is
// ~100 lines, deterministic, and its output equals torch's byte for byte (test/serialization/torch_format.test.ts
// compares whole files with the goldens). Reading needs none of this: fflate reads any zip, torch's included.

const ALIGNMENT = 64;
const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const UTF8_NAMES = 0x0800;
const FLAGS = UTF8_NAMES | 0x0008; // + data descriptor

// CRC-32 slicing by 8 (eight 256-entry tables, eight bytes a step): checkpoints are mostly storage bytes,
// and this loop is torch.save's cost per byte.
const CRC_TABLES = (() => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++)
    for (let k = 1; k < 8; k++) t[k * 256 + n] = (t[(k - 1) * 256 + n]! >>> 8) ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  return t;
})();

/** CRC-32 (the zip polynomial) of `data`. */
export function crc32(data: Uint8Array): number {
  const t = CRC_TABLES;
  let c = -1;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  for (; i < end8; i += 8) {
    const lo = c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

const U64 = (1n << 64n) - 1n;

/** c10::hash_combine on 64-bit size_t: `seed ^ (value + 0x9e3779b9 + (seed << 6) + (seed >> 2))`. */
function hashCombine(seed: bigint, value: bigint): bigint {
  return (seed ^ ((value + 0x9e3779b9n + ((seed << 6n) & U64) + (seed >> 2n)) & U64)) & U64;
}

interface Entry {
  name: Uint8Array;
  flags: number;
  offset: number;
  crc: number;
  size: number;
}

/**
 * Writes a torch.save zip archive in memory (PyTorchStreamWriter). `writeRecord` in the order torch.save
 * writes them, then `writeEndOfFile` adds `version`, `.data/serialization_id` and the central directory.
 */
export class PyTorchStreamWriter {
  private readonly chunks: Uint8Array[] = [];
  private readonly entries: Entry[] = [];
  private readonly written = new Set<string>();
  private pos = 0;
  private combinedCrc = 0n;
  private combinedNames = 0n;
  private readonly prefix: string;

  constructor(archiveName = 'archive') {
    if (archiveName.length === 0) throw new Error('invalid file name: the archive name is empty');
    this.prefix = `${archiveName}/`;
  }

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.pos += bytes.length;
  }

  writeRecord(name: string, data: Uint8Array | string): void {
    if (this.written.has(name)) throw new Error(`Tried to serialize file twice: ${name}`);
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    if (bytes.length >= 0xffffffff || this.pos >= 0xffffffff) {
      throw new Error(`torch.save in aten-ts writes records under 4 GiB (record ${name} has ${bytes.length} bytes)`);
    }
    const fullName = new TextEncoder().encode(this.prefix + name);
    const start = this.pos + LOCAL_HEADER + fullName.length + 4;
    const padding = (ALIGNMENT - (start % ALIGNMENT)) % ALIGNMENT;
    const crc = crc32(bytes);
    const header = new Uint8Array(LOCAL_HEADER + fullName.length + 4 + padding);
    const v = new DataView(header.buffer);
    // miniz writes no data descriptor for an empty record (nothing follows its header).
    const flags = bytes.length === 0 ? UTF8_NAMES : FLAGS;
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(6, flags, true);
    v.setUint16(26, fullName.length, true);
    v.setUint16(28, 4 + padding, true);
    header.set(fullName, LOCAL_HEADER);
    const extra = LOCAL_HEADER + fullName.length;
    header[extra] = 0x46; // 'F'
    header[extra + 1] = 0x42; // 'B'
    v.setUint16(extra + 2, padding, true);
    header.fill(0x5a, extra + 4); // 'Z'
    this.entries.push({ name: fullName, flags, offset: this.pos, crc, size: bytes.length });
    this.push(header);
    this.push(bytes);
    this.combinedNames = hashCombine(this.combinedNames, BigInt(crc32(new TextEncoder().encode(name))));
    this.written.add(name);
    if (bytes.length === 0) return;
    const descriptor = new Uint8Array(16);
    const d = new DataView(descriptor.buffer);
    d.setUint32(0, 0x08074b50, true);
    d.setUint32(4, crc, true);
    d.setUint32(8, bytes.length, true);
    d.setUint32(12, bytes.length, true);
    this.push(descriptor);
    this.combinedCrc = hashCombine(this.combinedCrc, BigInt(crc));
  }

  /**
   * `version` ("3\n"), `.data/serialization_id`, then the central directory; returns the archive's bytes.
   * See Note [Deterministic serialization id].
   */
  writeEndOfFile(): Uint8Array {
    if (!this.written.has('version') && !this.written.has('.data/version')) this.writeRecord('version', '3\n');
    if (!this.written.has('byteorder')) this.writeRecord('byteorder', 'little');
    const id = this.combinedNames.toString().padStart(20, '0') + this.combinedCrc.toString().padStart(20, '0');
    this.writeRecord('.data/serialization_id', id);

    const cdStart = this.pos;
    for (const e of this.entries) {
      const h = new Uint8Array(CENTRAL_HEADER + e.name.length);
      const v = new DataView(h.buffer);
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(8, e.flags, true);
      v.setUint32(16, e.crc, true);
      v.setUint32(20, e.size, true);
      v.setUint32(24, e.size, true);
      v.setUint16(28, e.name.length, true);
      v.setUint32(42, e.offset, true);
      h.set(e.name, CENTRAL_HEADER);
      this.push(h);
    }
    const cdSize = this.pos - cdStart;
    const n = this.entries.length;
    const zip64End = this.pos;
    const tail = new Uint8Array(56 + 20 + 22);
    const t = new DataView(tail.buffer);
    t.setUint32(0, 0x06064b50, true);
    t.setBigUint64(4, 44n, true);
    t.setUint16(12, 0x031e, true); // version made by: 3.0, Unix (miniz)
    t.setUint16(14, 45, true); // version needed: 4.5 (zip64)
    t.setBigUint64(24, BigInt(n), true);
    t.setBigUint64(32, BigInt(n), true);
    t.setBigUint64(40, BigInt(cdSize), true);
    t.setBigUint64(48, BigInt(cdStart), true);
    t.setUint32(56, 0x07064b50, true);
    t.setBigUint64(64, BigInt(zip64End), true);
    t.setUint32(72, 1, true);
    t.setUint32(76, 0x06054b50, true);
    t.setUint16(84, Math.min(n, 0xffff), true);
    t.setUint16(86, Math.min(n, 0xffff), true);
    t.setUint32(88, cdSize, true);
    t.setUint32(92, cdStart, true);
    this.push(tail);

    const out = new Uint8Array(this.pos);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

// Note [Deterministic serialization id]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `.data/serialization_id` is 40 digits: torch's PyTorchStreamWriter::writeSerializationId writes 20 digits of
// a hash of the record names, then 20 digits of the records' CRC-32s folded with c10::hash_combine in write
// order. aten-ts writes the second half exactly as torch does. The first half cannot be reproduced portably:
// torch folds libstdc++'s std::hash of each name over an unordered_set, in that set's bucket order; aten-ts
// folds the CRC-32 of each name, in write order, with the same hash_combine. The id only tells files apart
// (torch logs it on load); it depends only on the content, so the same object saves to the same bytes.

/** Reads a torch.save zip archive (PyTorchStreamReader): its records by name under the top folder. */
export class PyTorchStreamReader {
  readonly archiveName: string;
  private readonly records: Record<string, Uint8Array>;

  constructor(bytes: Uint8Array) {
    if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) {
      if (bytes.length >= 2 && bytes[0] === 0x80 && (bytes[1] as number) <= 5) {
        throw new Error(
          'torch.load: this file is in the legacy (pre-1.6) torch.save format, which aten-ts does not read; ' +
            're-save it with a current PyTorch (torch.save writes the zip format since 1.6)',
        );
      }
      throw new Error('PytorchStreamReader failed reading zip archive: failed finding central directory');
    }
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes);
    } catch (e) {
      throw new Error(`PytorchStreamReader failed reading zip archive: ${(e as Error).message}`);
    }
    const first = Object.keys(files)[0];
    const slash = first === undefined ? -1 : first.indexOf('/');
    if (first === undefined || slash <= 0) {
      throw new Error('PytorchStreamReader failed locating file data.pkl: the archive has no top folder');
    }
    this.archiveName = first.slice(0, slash);
    const prefix = `${this.archiveName}/`;
    this.records = {};
    for (const [name, data] of Object.entries(files)) {
      if (name.startsWith(prefix)) this.records[name.slice(prefix.length)] = data;
    }
  }

  hasRecord(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.records, name);
  }

  getRecord(name: string): Uint8Array {
    if (!this.hasRecord(name)) throw new Error(`PytorchStreamReader failed locating file ${name}: file not found`);
    return this.records[name] as Uint8Array;
  }
}
